from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="RabbitMqDestinationCredentials")



@_attrs_define
class RabbitMqDestinationCredentials:
    """ `username` and `password` (both required). Write-only: sealed at rest, never returned (responses list the fields set
    in `credentials_set`), never logged or traced. On PATCH, a destination of the same type sent without `credentials`
    keeps the stored ones.

        Attributes:
            username (str | Unset):
            password (str | Unset):
     """

    username: str | Unset = UNSET
    password: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if username is not UNSET:
            field_dict["username"] = username
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        rabbit_mq_destination_credentials = cls(
            username=username,
            password=password,
        )

        return rabbit_mq_destination_credentials

