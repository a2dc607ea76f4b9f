from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="RetryNowResult")



@_attrs_define
class RetryNowResult:
    """ 
        Attributes:
            woken (int): Deliveries whose next attempt is now being made.
            not_waiting (int): Deliveries found waiting that no longer were when woken (an attempt in flight, or ended
                meanwhile).
            next_cursor (None | str): Send it as `cursor` to go on with the next deliveries; null when this call reached the
                last.
     """

    woken: int
    not_waiting: int
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        woken = self.woken

        not_waiting = self.not_waiting

        next_cursor: None | str
        next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "woken": woken,
            "not_waiting": not_waiting,
            "next_cursor": next_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        woken = d.pop("woken")

        not_waiting = d.pop("not_waiting")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        retry_now_result = cls(
            woken=woken,
            not_waiting=not_waiting,
            next_cursor=next_cursor,
        )


        retry_now_result.additional_properties = d
        return retry_now_result

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
