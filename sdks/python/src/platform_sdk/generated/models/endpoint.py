from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.disabled_reason import DisabledReason
from ..models.endpoint_ordering import EndpointOrdering
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.destination_type_0 import DestinationType0
  from ..models.endpoint_health import EndpointHealth
  from ..models.fifo_queue import FifoQueue
  from ..models.secret_in_grace import SecretInGrace





T = TypeVar("T", bound="Endpoint")



@_attrs_define
class Endpoint:
    """ 
        Attributes:
            id (str): `ep_` + 24 base62 characters.
            tenant_id (None | str): The tenant it belongs to; null: the account's own endpoint.
            url (None | str): The HTTPS URL; null for a broker endpoint (see `destination`).
            destination (DestinationType0 | None): A broker endpoint's destination; null for an HTTPS endpoint.
            events (list[str]):
            description (str):
            disabled (bool):
            disabled_reason (DisabledReason | None): null while enabled; `manual` when disabled by its owner; `failing` when
                the platform disabled it because every delivery that ended during the auto-disable period (default 5 days,
                `ENDPOINT_AUTO_DISABLE_HOURS`) failed, the first of them at least that long ago. PATCH `{"disabled": false}`
                enables it again.
            paused (bool): While paused, no attempt is made to it: new events are still accepted and matched, and deliveries
                that come due wait, their attempt numbers and schedule unchanged (`POST .../pause`, `POST .../resume`).
            rate_limit_per_s (int | None): Deliveries started to this endpoint per second, across all workers: an integer 1
                to 1000; null: unlimited. Over it, a delivery waits its turn (retried after a short wait that grows while it
                keeps waiting); waiting is not an attempt and never fails a delivery.
            max_in_flight (int | None): Requests to this endpoint in flight at once, across all workers: an integer 1 to
                100; null: unlimited. Over it, a delivery waits its turn as for `rate_limit_per_s`.
            ordering (EndpointOrdering): `fifo`: deliveries are made one at a time, in the order their events were accepted:
                the next starts only once the one before it has succeeded, failed after its last attempt, or been cancelled (a
                failing delivery holds the queue while its retries run). `unordered` (the default): all at once. A change
                applies to events accepted from then on (docs/delivery.md, "FIFO endpoints").
            health (EndpointHealth): A delivery is one round of one event to this endpoint; it counts when it ends
                (succeeded, or failed after its last attempt), not per attempt. Cancelled deliveries do not count.
            secrets_in_grace (list[SecretInGrace]): Replaced signing secrets still in their rotation grace period, newest
                first (the secrets themselves are never listed).
            created_at (str): ISO 8601 UTC.
            updated_at (str):
            fifo (FifoQueue | Unset): A FIFO endpoint's queue; only on GET of one FIFO endpoint.
     """

    id: str
    tenant_id: None | str
    url: None | str
    destination: DestinationType0 | None
    events: list[str]
    description: str
    disabled: bool
    disabled_reason: DisabledReason | None
    paused: bool
    rate_limit_per_s: int | None
    max_in_flight: int | None
    ordering: EndpointOrdering
    health: EndpointHealth
    secrets_in_grace: list[SecretInGrace]
    created_at: str
    updated_at: str
    fifo: FifoQueue | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.destination_type_0 import DestinationType0 # noqa: PLC0415
        from ..models.endpoint_health import EndpointHealth # noqa: PLC0415
        from ..models.fifo_queue import FifoQueue # noqa: PLC0415
        from ..models.secret_in_grace import SecretInGrace # noqa: PLC0415
        id = self.id

        tenant_id: None | str
        tenant_id = self.tenant_id

        url: None | str
        url = self.url

        destination: dict[str, Any] | None
        if isinstance(self.destination, DestinationType0):
            destination = self.destination.to_dict()
        else:
            destination = self.destination

        events = self.events



        description = self.description

        disabled = self.disabled

        disabled_reason: None | str
        if isinstance(self.disabled_reason, DisabledReason):
            disabled_reason = self.disabled_reason.value
        else:
            disabled_reason = self.disabled_reason

        paused = self.paused

        rate_limit_per_s: int | None
        rate_limit_per_s = self.rate_limit_per_s

        max_in_flight: int | None
        max_in_flight = self.max_in_flight

        ordering = self.ordering.value

        health = self.health.to_dict()

        secrets_in_grace = []
        for secrets_in_grace_item_data in self.secrets_in_grace:
            secrets_in_grace_item = secrets_in_grace_item_data.to_dict()
            secrets_in_grace.append(secrets_in_grace_item)



        created_at = self.created_at

        updated_at = self.updated_at

        fifo: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fifo, Unset):
            fifo = self.fifo.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "tenant_id": tenant_id,
            "url": url,
            "destination": destination,
            "events": events,
            "description": description,
            "disabled": disabled,
            "disabled_reason": disabled_reason,
            "paused": paused,
            "rate_limit_per_s": rate_limit_per_s,
            "max_in_flight": max_in_flight,
            "ordering": ordering,
            "health": health,
            "secrets_in_grace": secrets_in_grace,
            "created_at": created_at,
            "updated_at": updated_at,
        })
        if fifo is not UNSET:
            field_dict["fifo"] = fifo

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.destination_type_0 import DestinationType0 # noqa: PLC0415
        from ..models.endpoint_health import EndpointHealth # noqa: PLC0415
        from ..models.fifo_queue import FifoQueue # noqa: PLC0415
        from ..models.secret_in_grace import SecretInGrace # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_tenant_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tenant_id = _parse_tenant_id(d.pop("tenant_id"))


        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))


        def _parse_destination(data: object) -> DestinationType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_0 = DestinationType0.from_dict(data)



                return componentsschemas_destination_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DestinationType0 | None, data)

        destination = _parse_destination(d.pop("destination"))


        events = cast(list[str], d.pop("events"))


        description = d.pop("description")

        disabled = d.pop("disabled")

        def _parse_disabled_reason(data: object) -> DisabledReason | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = DisabledReason(data)



                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DisabledReason | None, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))


        paused = d.pop("paused")

        def _parse_rate_limit_per_s(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rate_limit_per_s = _parse_rate_limit_per_s(d.pop("rate_limit_per_s"))


        def _parse_max_in_flight(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_in_flight = _parse_max_in_flight(d.pop("max_in_flight"))


        ordering = EndpointOrdering(d.pop("ordering"))




        health = EndpointHealth.from_dict(d.pop("health"))




        secrets_in_grace = []
        _secrets_in_grace = d.pop("secrets_in_grace")
        for secrets_in_grace_item_data in (_secrets_in_grace):
            secrets_in_grace_item = SecretInGrace.from_dict(secrets_in_grace_item_data)



            secrets_in_grace.append(secrets_in_grace_item)


        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        _fifo = d.pop("fifo", UNSET)
        fifo: FifoQueue | Unset
        if isinstance(_fifo,  Unset):
            fifo = UNSET
        else:
            fifo = FifoQueue.from_dict(_fifo)




        endpoint = cls(
            id=id,
            tenant_id=tenant_id,
            url=url,
            destination=destination,
            events=events,
            description=description,
            disabled=disabled,
            disabled_reason=disabled_reason,
            paused=paused,
            rate_limit_per_s=rate_limit_per_s,
            max_in_flight=max_in_flight,
            ordering=ordering,
            health=health,
            secrets_in_grace=secrets_in_grace,
            created_at=created_at,
            updated_at=updated_at,
            fifo=fifo,
        )


        endpoint.additional_properties = d
        return endpoint

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
