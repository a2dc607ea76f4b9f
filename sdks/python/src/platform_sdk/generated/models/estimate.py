from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.estimate_line import EstimateLine





T = TypeVar("T", bound="Estimate")



@_attrs_define
class Estimate:
    """ 
        Attributes:
            total_monthly_usd (float): Unrounded sum of the lines, rounded half-up to cents.
            total_annual_usd (float): 12 × totalMonthlyUsd.
            breakdown (list[EstimateLine]): One line per item, in request order.
            generated_at (str): ISO 8601 UTC with milliseconds.
     """

    total_monthly_usd: float
    total_annual_usd: float
    breakdown: list[EstimateLine]
    generated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.estimate_line import EstimateLine # noqa: PLC0415
        total_monthly_usd = self.total_monthly_usd

        total_annual_usd = self.total_annual_usd

        breakdown = []
        for breakdown_item_data in self.breakdown:
            breakdown_item = breakdown_item_data.to_dict()
            breakdown.append(breakdown_item)



        generated_at = self.generated_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "totalMonthlyUsd": total_monthly_usd,
            "totalAnnualUsd": total_annual_usd,
            "breakdown": breakdown,
            "generatedAt": generated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate_line import EstimateLine # noqa: PLC0415
        d = dict(src_dict)
        total_monthly_usd = d.pop("totalMonthlyUsd")

        total_annual_usd = d.pop("totalAnnualUsd")

        breakdown = []
        _breakdown = d.pop("breakdown")
        for breakdown_item_data in (_breakdown):
            breakdown_item = EstimateLine.from_dict(breakdown_item_data)



            breakdown.append(breakdown_item)


        generated_at = d.pop("generatedAt")

        estimate = cls(
            total_monthly_usd=total_monthly_usd,
            total_annual_usd=total_annual_usd,
            breakdown=breakdown,
            generated_at=generated_at,
        )


        estimate.additional_properties = d
        return estimate

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
