from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RecoverRequest")



@_attrs_define
class RecoverRequest:
    """ 
        Attributes:
            since (datetime.datetime): An ISO 8601 date-time with Z or an offset such as +02:00, within the last 7 days:
                deliveries that ended failed or cancelled and were first attempted since then start again. Example:
                2026-11-20T00:00:00Z.
     """

    since: datetime.datetime





    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "since": since,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))




        recover_request = cls(
            since=since,
        )

        return recover_request

