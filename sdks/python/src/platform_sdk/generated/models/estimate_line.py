from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.provider import Provider






T = TypeVar("T", bound="EstimateLine")



@_attrs_define
class EstimateLine:
    """ 
        Attributes:
            provider (Provider):
            service (str):
            instance (str): The matched catalog instance (the service's only one when the item named none).
            quantity (float):
            unit_price (float):
            price_unit (str):
            monthly_usd (float): Line cost, exact decimal arithmetic rounded half-up to cents.
     """

    provider: Provider
    service: str
    instance: str
    quantity: float
    unit_price: float
    price_unit: str
    monthly_usd: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        service = self.service

        instance = self.instance

        quantity = self.quantity

        unit_price = self.unit_price

        price_unit = self.price_unit

        monthly_usd = self.monthly_usd


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "provider": provider,
            "service": service,
            "instance": instance,
            "quantity": quantity,
            "unitPrice": unit_price,
            "priceUnit": price_unit,
            "monthlyUsd": monthly_usd,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = Provider(d.pop("provider"))




        service = d.pop("service")

        instance = d.pop("instance")

        quantity = d.pop("quantity")

        unit_price = d.pop("unitPrice")

        price_unit = d.pop("priceUnit")

        monthly_usd = d.pop("monthlyUsd")

        estimate_line = cls(
            provider=provider,
            service=service,
            instance=instance,
            quantity=quantity,
            unit_price=unit_price,
            price_unit=price_unit,
            monthly_usd=monthly_usd,
        )


        estimate_line.additional_properties = d
        return estimate_line

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
