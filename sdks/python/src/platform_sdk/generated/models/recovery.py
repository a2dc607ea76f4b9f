from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Recovery")



@_attrs_define
class Recovery:
    """ 
        Attributes:
            id (str): The recovery workflow id, `recover-<endpoint id>` (visible in the Temporal UI).
            endpoint_id (str):
            since (str):
            count (int): Deliveries this recovery starts again (at most 1,000, the oldest first).
            started_at (str):
     """

    id: str
    endpoint_id: str
    since: str
    count: int
    started_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint_id = self.endpoint_id

        since = self.since

        count = self.count

        started_at = self.started_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "endpoint_id": endpoint_id,
            "since": since,
            "count": count,
            "started_at": started_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        endpoint_id = d.pop("endpoint_id")

        since = d.pop("since")

        count = d.pop("count")

        started_at = d.pop("started_at")

        recovery = cls(
            id=id,
            endpoint_id=endpoint_id,
            since=since,
            count=count,
            started_at=started_at,
        )


        recovery.additional_properties = d
        return recovery

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
