from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="FifoQueue")



@_attrs_define
class FifoQueue:
    """ A FIFO endpoint's queue; only on GET of one FIFO endpoint.

        Attributes:
            head_event_id (int | None): The event whose delivery holds the turn (in flight, or waiting for its next
                attempt); null when none waits.
            length (int): Deliveries from the head to the newest accepted, the head included (one cancelled out of turn is
                counted until the head passes it).
     """

    head_event_id: int | None
    length: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        head_event_id: int | None
        head_event_id = self.head_event_id

        length = self.length


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "head_event_id": head_event_id,
            "length": length,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_head_event_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        head_event_id = _parse_head_event_id(d.pop("head_event_id"))


        length = d.pop("length")

        fifo_queue = cls(
            head_event_id=head_event_id,
            length=length,
        )


        fifo_queue.additional_properties = d
        return fifo_queue

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
