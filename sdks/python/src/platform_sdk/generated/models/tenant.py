from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Tenant")



@_attrs_define
class Tenant:
    """ A tenant exists while it has at least one endpoint.

        Attributes:
            tenant_id (str):
            endpoint_count (int): Its endpoints, disabled ones included (what its cap counts).
            created_at (str): When its first endpoint (since it last had none) was created, ISO 8601 UTC.
     """

    tenant_id: str
    endpoint_count: int
    created_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        endpoint_count = self.endpoint_count

        created_at = self.created_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tenant_id": tenant_id,
            "endpoint_count": endpoint_count,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenant_id")

        endpoint_count = d.pop("endpoint_count")

        created_at = d.pop("created_at")

        tenant = cls(
            tenant_id=tenant_id,
            endpoint_count=endpoint_count,
            created_at=created_at,
        )


        tenant.additional_properties = d
        return tenant

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
