from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.estimate_item import EstimateItem





T = TypeVar("T", bound="PostApiCostEstimatorBody")



@_attrs_define
class PostApiCostEstimatorBody:
    """ 1 to 100 items. Unknown fields are rejected (400) so a misspelt usage field never prices silently at its default.

        Example:
            {'items': [{'provider': 'aws', 'service': 'Amazon EC2', 'instance': 'm5.large', 'quantity': 2, 'hoursPerMonth':
                730}, {'provider': 'aws', 'service': 'Amazon S3', 'instance': 'Standard', 'quantity': 1, 'gbPerMonth': 500},
                {'provider': 'aws', 'service': 'AWS Lambda', 'instance': 'Requests', 'quantity': 3}]}

        Attributes:
            items (list[EstimateItem]):
     """

    items: list[EstimateItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.estimate_item import EstimateItem # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.estimate_item import EstimateItem # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = EstimateItem.from_dict(items_item_data)



            items.append(items_item)


        post_api_cost_estimator_body = cls(
            items=items,
        )

        return post_api_cost_estimator_body

