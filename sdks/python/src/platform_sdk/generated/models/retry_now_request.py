from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RetryNowRequest")



@_attrs_define
class RetryNowRequest:
    """ Optional; an empty body starts from the first waiting delivery.

        Attributes:
            cursor (str | Unset): `next_cursor` of the previous call: continues after the deliveries it went through.
     """

    cursor: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        cursor = self.cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cursor = d.pop("cursor", UNSET)

        retry_now_request = cls(
            cursor=cursor,
        )

        return retry_now_request

