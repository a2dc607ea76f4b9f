from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_status import EventStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.event_data import EventData





T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ 
        Attributes:
            id (int):
            type_ (str):
            timestamp (int):
            data (EventData): Any JSON object (not an array, not null); at most 256 KiB serialized. Every key is delivered
                as sent, and every number with the value it was sent with: one a 64-bit double cannot hold (an integer beyond
                2^53, more than 15 significant digits, 1e400) keeps its digits as sent, in the delivery and in this API's
                answers (a client that reads every number as a double, as JSON.parse and Go's encoding/json into an interface{}
                do, still rounds them).
            idempotency_key (None | str):
            status (EventStatus):
            destinations (int):
            created_at (str):
            tenant_id (str | Unset): The tenant it was sent for; absent when it was sent for none (the account's own
                endpoints).
     """

    id: int
    type_: str
    timestamp: int
    data: EventData
    idempotency_key: None | str
    status: EventStatus
    destinations: int
    created_at: str
    tenant_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_data import EventData # noqa: PLC0415
        id = self.id

        type_ = self.type_

        timestamp = self.timestamp

        data = self.data.to_dict()

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        status = self.status.value

        destinations = self.destinations

        created_at = self.created_at

        tenant_id = self.tenant_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "timestamp": timestamp,
            "data": data,
            "idempotency_key": idempotency_key,
            "status": status,
            "destinations": destinations,
            "created_at": created_at,
        })
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        timestamp = d.pop("timestamp")

        data = EventData.from_dict(d.pop("data"))




        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))


        status = EventStatus(d.pop("status"))




        destinations = d.pop("destinations")

        created_at = d.pop("created_at")

        tenant_id = d.pop("tenant_id", UNSET)

        event = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            data=data,
            idempotency_key=idempotency_key,
            status=status,
            destinations=destinations,
            created_at=created_at,
            tenant_id=tenant_id,
        )


        event.additional_properties = d
        return event

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
