from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_api_cost_estimator_response_200_services_item_category import GetApiCostEstimatorResponse200ServicesItemCategory
from ..models.get_api_cost_estimator_response_200_services_item_price_unit import GetApiCostEstimatorResponse200ServicesItemPriceUnit
from ..models.get_api_cost_estimator_response_200_services_item_provider import GetApiCostEstimatorResponse200ServicesItemProvider






T = TypeVar("T", bound="GetApiCostEstimatorResponse200ServicesItem")



@_attrs_define
class GetApiCostEstimatorResponse200ServicesItem:
    """ 
        Attributes:
            provider (GetApiCostEstimatorResponse200ServicesItemProvider):
            category (GetApiCostEstimatorResponse200ServicesItemCategory):
            service (str):
            instance (str): Instance type or tier name.
            specs (str):
            price_unit (GetApiCostEstimatorResponse200ServicesItemPriceUnit):
            price_usd (float): List price in USD per priceUnit.
            region (str):
     """

    provider: GetApiCostEstimatorResponse200ServicesItemProvider
    category: GetApiCostEstimatorResponse200ServicesItemCategory
    service: str
    instance: str
    specs: str
    price_unit: GetApiCostEstimatorResponse200ServicesItemPriceUnit
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
        provider = GetApiCostEstimatorResponse200ServicesItemProvider(d.pop("provider"))




        category = GetApiCostEstimatorResponse200ServicesItemCategory(d.pop("category"))




        service = d.pop("service")

        instance = d.pop("instance")

        specs = d.pop("specs")

        price_unit = GetApiCostEstimatorResponse200ServicesItemPriceUnit(d.pop("priceUnit"))




        price_usd = d.pop("priceUsd")

        region = d.pop("region")

        get_api_cost_estimator_response_200_services_item = cls(
            provider=provider,
            category=category,
            service=service,
            instance=instance,
            specs=specs,
            price_unit=price_unit,
            price_usd=price_usd,
            region=region,
        )


        get_api_cost_estimator_response_200_services_item.additional_properties = d
        return get_api_cost_estimator_response_200_services_item

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
