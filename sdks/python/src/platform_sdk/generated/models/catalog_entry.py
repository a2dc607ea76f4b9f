from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.category import Category
from ..models.price_unit import PriceUnit
from ..models.provider import Provider






T = TypeVar("T", bound="CatalogEntry")



@_attrs_define
class CatalogEntry:
    """ 
        Attributes:
            provider (Provider):
            category (Category):
            service (str):
            instance (str): Instance type or tier name.
            specs (str):
            price_unit (PriceUnit):
            price_usd (float): List price in USD per priceUnit.
            region (str):
     """

    provider: Provider
    category: Category
    service: str
    instance: str
    specs: str
    price_unit: PriceUnit
    price_usd: float
    region: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        category = self.category.value

        service = self.service

        instance = self.instance

        specs = self.specs

        price_unit = self.price_unit.value

        price_usd = self.price_usd

        region = self.region


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "provider": provider,
            "category": category,
            "service": service,
            "instance": instance,
            "specs": specs,
            "priceUnit": price_unit,
            "priceUsd": price_usd,
            "region": region,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = Provider(d.pop("provider"))




        category = Category(d.pop("category"))




        service = d.pop("service")

        instance = d.pop("instance")

        specs = d.pop("specs")

        price_unit = PriceUnit(d.pop("priceUnit"))




        price_usd = d.pop("priceUsd")

        region = d.pop("region")

        catalog_entry = cls(
            provider=provider,
            category=category,
            service=service,
            instance=instance,
            specs=specs,
            price_unit=price_unit,
            price_usd=price_usd,
            region=region,
        )


        catalog_entry.additional_properties = d
        return catalog_entry

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
