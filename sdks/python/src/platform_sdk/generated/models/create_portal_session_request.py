from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreatePortalSessionRequest")



@_attrs_define
class CreatePortalSessionRequest:
    """ 
        Attributes:
            tenant_id (str): Your customer this belongs to, named by your own id for it: must be 1 to 128 characters of A-Z
                a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is delivered only to the matching endpoints of
                that tenant; an event without one only to the account's endpoints that have none. One tenant's events never
                reach another tenant, and there is no broadcast to every tenant (docs/tenants-and-portal.md). Example:
                cus_8f14e45f.
            expires_in_seconds (int | Unset): How long the token works: 60 to 86400 seconds (24 h), default 3600 (1 h).
                Default: 3600.
            read_only (bool | Unset): A read-only token gets 403 `portal_read_only` on every call but GET. Default: False.
     """

    tenant_id: str
    expires_in_seconds: int | Unset = 3600
    read_only: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        expires_in_seconds = self.expires_in_seconds

        read_only = self.read_only


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tenant_id": tenant_id,
        })
        if expires_in_seconds is not UNSET:
            field_dict["expires_in_seconds"] = expires_in_seconds
        if read_only is not UNSET:
            field_dict["read_only"] = read_only

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        expires_in_seconds = d.pop("expires_in_seconds", UNSET)

        read_only = d.pop("read_only", UNSET)

        create_portal_session_request = cls(
            tenant_id=tenant_id,
            expires_in_seconds=expires_in_seconds,
            read_only=read_only,
        )

        return create_portal_session_request

