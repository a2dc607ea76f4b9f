from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.event_data import EventData





T = TypeVar("T", bound="SendEventRequest")



@_attrs_define
class SendEventRequest:
    """ 
        Attributes:
            type_ (str): 1 to 256 characters of A-Z a-z 0-9 _ . : -. Types starting `platform.` are reserved for the
                operational events the platform emits: 422 `reserved_event_type`.
            data (EventData): Any JSON object (not an array, not null); at most 256 KiB serialized. Every key is delivered
                as sent, and every number with the value it was sent with: one a 64-bit double cannot hold (an integer beyond
                2^53, more than 15 significant digits, 1e400) keeps its digits as sent, in the delivery and in this API's
                answers (a client that reads every number as a double, as JSON.parse and Go's encoding/json into an interface{}
                do, still rounds them).
            idempotency_key (str | Unset): Same as the `Idempotency-Key` header (its bytes read as UTF-8); repeats within 24
                h return the original. 1 to 255 characters, spaces and any script included, e.g. a UUID or
                `<entity_id>_<action>`; a control character (U+0000 to U+001F, U+007F to U+009F) or an unpaired surrogate, in
                the body or the header, is a 400 `invalid_request`. Each tenant has its own keys, apart from the account's: the
                same key for another tenant is another event.
            tenant_id (str | Unset): Your customer this belongs to, named by your own id for it: must be 1 to 128 characters
                of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is delivered only to the matching endpoints
                of that tenant; an event without one only to the account's endpoints that have none. One tenant's events never
                reach another tenant, and there is no broadcast to every tenant (docs/tenants-and-portal.md). Example:
                cus_8f14e45f.
     """

    type_: str
    data: EventData
    idempotency_key: str | Unset = UNSET
    tenant_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_data import EventData # noqa: PLC0415
        type_ = self.type_

        data = self.data.to_dict()

        idempotency_key = self.idempotency_key

        tenant_id = self.tenant_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "data": data,
        })
        if idempotency_key is not UNSET:
            field_dict["idempotency_key"] = idempotency_key
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData # noqa: PLC0415
        d = dict(src_dict)
        type_ = d.pop("type")

        data = EventData.from_dict(d.pop("data"))




        idempotency_key = d.pop("idempotency_key", UNSET)

        tenant_id = d.pop("tenant_id", UNSET)

        send_event_request = cls(
            type_=type_,
            data=data,
            idempotency_key=idempotency_key,
            tenant_id=tenant_id,
        )

        return send_event_request

