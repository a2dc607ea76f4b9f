from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.estimate_item_provider import EstimateItemProvider
from ..types import UNSET, Unset






T = TypeVar("T", bound="EstimateItem")



@_attrs_define
class EstimateItem:
    """ 
        Attributes:
            provider (EstimateItemProvider):
            service (str):
            quantity (float):
            instance (str | Unset):
            hours_per_month (float | Unset):
            gb_per_month (float | Unset):
     """

    provider: EstimateItemProvider
    service: str
    quantity: float
    instance: str | Unset = UNSET
    hours_per_month: float | Unset = UNSET
    gb_per_month: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        service = self.service

        quantity = self.quantity

        instance = self.instance

        hours_per_month = self.hours_per_month

        gb_per_month = self.gb_per_month


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "provider": provider,
            "service": service,
            "quantity": quantity,
        })
        if instance is not UNSET:
            field_dict["instance"] = instance
        if hours_per_month is not UNSET:
            field_dict["hoursPerMonth"] = hours_per_month
        if gb_per_month is not UNSET:
            field_dict["gbPerMonth"] = gb_per_month

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = EstimateItemProvider(d.pop("provider"))




        service = d.pop("service")

        quantity = d.pop("quantity")

        instance = d.pop("instance", UNSET)

        hours_per_month = d.pop("hoursPerMonth", UNSET)

        gb_per_month = d.pop("gbPerMonth", UNSET)

        estimate_item = cls(
            provider=provider,
            service=service,
            quantity=quantity,
            instance=instance,
            hours_per_month=hours_per_month,
            gb_per_month=gb_per_month,
        )

        return estimate_item

