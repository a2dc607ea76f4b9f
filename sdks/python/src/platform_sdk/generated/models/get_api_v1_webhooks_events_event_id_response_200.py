from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_api_v1_webhooks_events_event_id_response_200_status import GetApiV1WebhooksEventsEventIdResponse200Status
from typing import cast

if TYPE_CHECKING:
  from ..models.get_api_v1_webhooks_events_event_id_response_200_data import GetApiV1WebhooksEventsEventIdResponse200Data
  from ..models.get_api_v1_webhooks_events_event_id_response_200_deliveries_item import GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem





T = TypeVar("T", bound="GetApiV1WebhooksEventsEventIdResponse200")



@_attrs_define
class GetApiV1WebhooksEventsEventIdResponse200:
    """ 
        Attributes:
            id (int):
            type_ (str):
            timestamp (int):
            data (GetApiV1WebhooksEventsEventIdResponse200Data):
            idempotency_key (None | str):
            status (GetApiV1WebhooksEventsEventIdResponse200Status):
            destinations (int):
            created_at (str):
            deliveries (list[GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem]):
     """

    id: int
    type_: str
    timestamp: int
    data: GetApiV1WebhooksEventsEventIdResponse200Data
    idempotency_key: None | str
    status: GetApiV1WebhooksEventsEventIdResponse200Status
    destinations: int
    created_at: str
    deliveries: list[GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_api_v1_webhooks_events_event_id_response_200_data import GetApiV1WebhooksEventsEventIdResponse200Data # noqa: PLC0415
        from ..models.get_api_v1_webhooks_events_event_id_response_200_deliveries_item import GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem # noqa: PLC0415
        id = self.id

        type_ = self.type_

        timestamp = self.timestamp

        data = self.data.to_dict()

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        status = self.status.value

        destinations = self.destinations

        created_at = self.created_at

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)




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
            "deliveries": deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_api_v1_webhooks_events_event_id_response_200_data import GetApiV1WebhooksEventsEventIdResponse200Data # noqa: PLC0415
        from ..models.get_api_v1_webhooks_events_event_id_response_200_deliveries_item import GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        timestamp = d.pop("timestamp")

        data = GetApiV1WebhooksEventsEventIdResponse200Data.from_dict(d.pop("data"))




        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotency_key"))


        status = GetApiV1WebhooksEventsEventIdResponse200Status(d.pop("status"))




        destinations = d.pop("destinations")

        created_at = d.pop("created_at")

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in (_deliveries):
            deliveries_item = GetApiV1WebhooksEventsEventIdResponse200DeliveriesItem.from_dict(deliveries_item_data)



            deliveries.append(deliveries_item)


        get_api_v1_webhooks_events_event_id_response_200 = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            data=data,
            idempotency_key=idempotency_key,
            status=status,
            destinations=destinations,
            created_at=created_at,
            deliveries=deliveries,
        )


        get_api_v1_webhooks_events_event_id_response_200.additional_properties = d
        return get_api_v1_webhooks_events_event_id_response_200

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
