from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SentEvent")



@_attrs_define
class SentEvent:
    """ 
        Attributes:
            id (int):
            type_ (str):
            timestamp (int):
            idempotency_key (None | str):
            destinations (int): Number of matching, enabled endpoints.
            tenant_id (str | Unset): The tenant it was sent for; absent when it was sent for none (the account's own
                endpoints).
     """

    id: int
    type_: str
    timestamp: int
    idempotency_key: None | str
    destinations: int
    tenant_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        timestamp = self.timestamp

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        destinations = self.destinations

        tenant_id = self.tenant_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "timestamp": timestamp,
            "idempotency_key": idempotency_key,
            "destinations": destinations,
        })
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        timestamp = d.pop("timestamp")

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))


        destinations = d.pop("destinations")

        tenant_id = d.pop("tenant_id", UNSET)

        sent_event = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            idempotency_key=idempotency_key,
            destinations=destinations,
            tenant_id=tenant_id,
        )


        sent_event.additional_properties = d
        return sent_event

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
