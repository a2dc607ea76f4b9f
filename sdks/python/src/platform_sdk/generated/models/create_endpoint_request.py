from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.endpoint_ordering import EndpointOrdering
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.kafka_destination import KafkaDestination
  from ..models.rabbit_mq_destination import RabbitMqDestination
  from ..models.sqs_destination import SqsDestination





T = TypeVar("T", bound="CreateEndpointRequest")



@_attrs_define
class CreateEndpointRequest:
    """ 
        Attributes:
            url (str | Unset): HTTPS URL receiving delivery POSTs (max 2,048 characters). Required unless `destination` is
                given. Example: https://example.com/webhooks.
            destination (KafkaDestination | RabbitMqDestination | SqsDestination | Unset): Instead of `url`: the endpoint
                publishes each delivery to a broker (docs/destinations.md). An endpoint has `url` or `destination`, never both.
            events (list[str] | Unset): Patterns: `*`, `<prefix>.*` or an exact event type. Default `["*"]`. `*` matches
                every type except the operational events the platform emits about the account's own deliveries
                (`platform.endpoint.disabled`, `platform.endpoint.failing`, `platform.delivery.exhausted`): an endpoint receives
                those only through a pattern naming them, e.g. `platform.*`.
            description (str | Unset): Free text, default "".
            tenant_id (str | Unset): Your customer this belongs to, named by your own id for it: must be 1 to 128 characters
                of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is delivered only to the matching endpoints
                of that tenant; an event without one only to the account's endpoints that have none. One tenant's events never
                reach another tenant, and there is no broadcast to every tenant (docs/tenants-and-portal.md). Example:
                cus_8f14e45f.
            rate_limit_per_s (int | None | Unset): Deliveries started to this endpoint per second, across all workers: an
                integer 1 to 1000; null: unlimited. Over it, a delivery waits its turn (retried after a short wait that grows
                while it keeps waiting); waiting is not an attempt and never fails a delivery.
            max_in_flight (int | None | Unset): Requests to this endpoint in flight at once, across all workers: an integer
                1 to 100; null: unlimited. Over it, a delivery waits its turn as for `rate_limit_per_s`.
            ordering (EndpointOrdering | Unset): `fifo`: deliveries are made one at a time, in the order their events were
                accepted: the next starts only once the one before it has succeeded, failed after its last attempt, or been
                cancelled (a failing delivery holds the queue while its retries run). `unordered` (the default): all at once. A
                change applies to events accepted from then on (docs/delivery.md, "FIFO endpoints").
     """

    url: str | Unset = UNSET
    destination: KafkaDestination | RabbitMqDestination | SqsDestination | Unset = UNSET
    events: list[str] | Unset = UNSET
    description: str | Unset = UNSET
    tenant_id: str | Unset = UNSET
    rate_limit_per_s: int | None | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    ordering: EndpointOrdering | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.kafka_destination import KafkaDestination # noqa: PLC0415
        from ..models.rabbit_mq_destination import RabbitMqDestination # noqa: PLC0415
        from ..models.sqs_destination import SqsDestination # noqa: PLC0415
        url = self.url

        destination: dict[str, Any] | Unset
        if isinstance(self.destination, Unset):
            destination = UNSET
        elif isinstance(self.destination, RabbitMqDestination):
            destination = self.destination.to_dict()
        elif isinstance(self.destination, KafkaDestination):
            destination = self.destination.to_dict()
        else:
            destination = self.destination.to_dict()


        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events



        description = self.description

        tenant_id = self.tenant_id

        rate_limit_per_s: int | None | Unset
        if isinstance(self.rate_limit_per_s, Unset):
            rate_limit_per_s = UNSET
        else:
            rate_limit_per_s = self.rate_limit_per_s

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        ordering: str | Unset = UNSET
        if not isinstance(self.ordering, Unset):
            ordering = self.ordering.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if destination is not UNSET:
            field_dict["destination"] = destination
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if tenant_id is not UNSET:
            field_dict["tenant_id"] = tenant_id
        if rate_limit_per_s is not UNSET:
            field_dict["rate_limit_per_s"] = rate_limit_per_s
        if max_in_flight is not UNSET:
            field_dict["max_in_flight"] = max_in_flight
        if ordering is not UNSET:
            field_dict["ordering"] = ordering

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.kafka_destination import KafkaDestination # noqa: PLC0415
        from ..models.rabbit_mq_destination import RabbitMqDestination # noqa: PLC0415
        from ..models.sqs_destination import SqsDestination # noqa: PLC0415
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        def _parse_destination(data: object) -> KafkaDestination | RabbitMqDestination | SqsDestination | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_request_type_0 = RabbitMqDestination.from_dict(data)



                return componentsschemas_destination_request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_request_type_1 = KafkaDestination.from_dict(data)



                return componentsschemas_destination_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_destination_request_type_2 = SqsDestination.from_dict(data)



            return componentsschemas_destination_request_type_2

        destination = _parse_destination(d.pop("destination", UNSET))


        events = cast(list[str], d.pop("events", UNSET))


        description = d.pop("description", UNSET)

        tenant_id = d.pop("tenant_id", UNSET)

        def _parse_rate_limit_per_s(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_s = _parse_rate_limit_per_s(d.pop("rate_limit_per_s", UNSET))


        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("max_in_flight", UNSET))


        _ordering = d.pop("ordering", UNSET)
        ordering: EndpointOrdering | Unset
        if isinstance(_ordering,  Unset):
            ordering = UNSET
        else:
            ordering = EndpointOrdering(_ordering)




        create_endpoint_request = cls(
            url=url,
            destination=destination,
            events=events,
            description=description,
            tenant_id=tenant_id,
            rate_limit_per_s=rate_limit_per_s,
            max_in_flight=max_in_flight,
            ordering=ordering,
        )

        return create_endpoint_request

