from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PortalSession")



@_attrs_define
class PortalSession:
    """ 
        Attributes:
            url (str): The tenant's portal page, `<origin>/portal/<account id>#token=<token>`: the token in its fragment
                (never sent to a server).
            token (str): `whpt_` + 43 base64url characters: `Authorization: Bearer <token>` on the endpoint and event paths,
                for this tenant only. Shown only here.
            expires_at (str): ISO 8601 UTC.
            tenant_id (str):
            read_only (bool):
     """

    url: str
    token: str
    expires_at: str
    tenant_id: str
    read_only: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        token = self.token

        expires_at = self.expires_at

        tenant_id = self.tenant_id

        read_only = self.read_only


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "url": url,
            "token": token,
            "expires_at": expires_at,
            "tenant_id": tenant_id,
            "read_only": read_only,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        token = d.pop("token")

        expires_at = d.pop("expires_at")

        tenant_id = d.pop("tenant_id")

        read_only = d.pop("read_only")

        portal_session = cls(
            url=url,
            token=token,
            expires_at=expires_at,
            tenant_id=tenant_id,
            read_only=read_only,
        )


        portal_session.additional_properties = d
        return portal_session

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
