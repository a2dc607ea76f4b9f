from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SqsDestinationCredentials")



@_attrs_define
class SqsDestinationCredentials:
    """ `access_key_id` and `secret_access_key` (required), `session_token` (optional). Write-only: sealed at rest, never
    returned (responses list the fields set in `credentials_set`), never logged or traced. On PATCH, a destination of
    the same type sent without `credentials` keeps the stored ones.

        Attributes:
            access_key_id (str | Unset):
            secret_access_key (str | Unset):
            session_token (str | Unset):
     """

    access_key_id: str | Unset = UNSET
    secret_access_key: str | Unset = UNSET
    session_token: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        access_key_id = self.access_key_id

        secret_access_key = self.secret_access_key

        session_token = self.session_token


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if access_key_id is not UNSET:
            field_dict["access_key_id"] = access_key_id
        if secret_access_key is not UNSET:
            field_dict["secret_access_key"] = secret_access_key
        if session_token is not UNSET:
            field_dict["session_token"] = session_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_key_id = d.pop("access_key_id", UNSET)

        secret_access_key = d.pop("secret_access_key", UNSET)

        session_token = d.pop("session_token", UNSET)

        sqs_destination_credentials = cls(
            access_key_id=access_key_id,
            secret_access_key=secret_access_key,
            session_token=session_token,
        )

        return sqs_destination_credentials

