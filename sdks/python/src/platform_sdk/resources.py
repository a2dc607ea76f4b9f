"""Events, endpoints, deliveries, event types, tenants and portal sessions: each method is one generated operation called through the retry policy.
The same classes serve Client and AsyncClient (a method returns the caller's result: a value, or an awaitable);
only the paging iterators differ (a generator, an async generator)."""
import datetime
import uuid
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Iterator, List, Optional

from .generated.api.webhook_endpoints import (
    delete_api_v1_webhooks_endpoints_id as delete_endpoint,
    get_api_v1_webhooks_endpoints as list_endpoints,
    get_api_v1_webhooks_endpoints_id as get_endpoint,
    get_api_v1_webhooks_endpoints_id_secret as get_secret,
    patch_api_v1_webhooks_endpoints_id as update_endpoint,
    post_api_v1_webhooks_endpoints as create_endpoint,
    post_api_v1_webhooks_endpoints_id_pause as pause_endpoint,
    post_api_v1_webhooks_endpoints_id_recover as recover_endpoint,
    post_api_v1_webhooks_endpoints_id_resume as resume_endpoint,
    post_api_v1_webhooks_endpoints_id_retry_now as retry_endpoint_now,
    post_api_v1_webhooks_endpoints_id_secret_rotate as rotate_secret,
)
from .generated.api.webhook_events import (
    get_api_v1_webhooks_events as list_events,
    get_api_v1_webhooks_events_event_id as get_event,
    post_api_v1_webhooks_events as send_event,
    post_api_v1_webhooks_events_event_id_deliveries_endpoint_id_cancel as cancel_delivery,
    post_api_v1_webhooks_events_event_id_deliveries_endpoint_id_retry as retry_delivery,
    post_api_v1_webhooks_events_event_id_deliveries_endpoint_id_retry_now as retry_delivery_now,
)
from .generated.api.webhook_event_types import (
    delete_api_v1_webhooks_event_types_name as delete_event_type,
    get_api_v1_webhooks_event_types as list_event_types,
    get_api_v1_webhooks_event_types_name as get_event_type,
    patch_api_v1_webhooks_event_types_name as update_event_type,
    post_api_v1_webhooks_event_types as create_event_type,
)
from .generated.api.webhook_tenants import (
    delete_api_v1_webhooks_portal_sessions as revoke_portal_sessions,
    delete_api_v1_webhooks_tenants_tenant_id as delete_tenant,
    get_api_v1_webhooks_tenants as list_tenants,
    post_api_v1_webhooks_portal_sessions as create_portal_session,
)
from .generated.models import (
    CreateEndpointRequest,
    CreateEventTypeRequest,
    CreatePortalSessionRequest,
    EventData,
    EventStatus,
    RecoverRequest,
    RetryNowRequest,
    RotateSecretRequest,
    SendEventRequest,
    UpdateEndpointRequest,
    UpdateEventTypeRequest,
)
from .generated.types import UNSET

PAGE_SIZE = 100
# An argument not given, where None means null (remove, or move to the account).
_KEEP: Any = object()


def _unset_if_none(value: Any) -> Any:
    return UNSET if value is None else value


class Events:
    def __init__(self, call: Any):
        self._call = call

    def send(self, type: str, data: Dict[str, Any], idempotency_key: Optional[str] = None, tenant_id: Optional[str] = None) -> Any:
        """Ingests an event. Without an idempotency key one is made (a UUID), and every retry of this call
        sends the same one: a send repeated after a time-out returns the original event, never a second one.
        With a tenant_id it reaches only that tenant's endpoints; without, only the account's endpoints that have none."""
        body = SendEventRequest(
            type_=type,
            data=EventData.from_dict(data),
            idempotency_key=idempotency_key or str(uuid.uuid4()),
            tenant_id=_unset_if_none(tenant_id),
        )
        return self._call(send_event, body=body, safe_to_repeat=True)

    def get(self, event_id: int) -> Any:
        """The event with its deliveries (one per matching endpoint) and their attempts."""
        return self._call(get_event, str(event_id), safe_to_repeat=True)

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE, type: Optional[str] = None, status: Optional[str] = None,
             tenant_id: Optional[str] = None) -> Any:
        return self._call(
            list_events,
            limit=limit,
            cursor=_unset_if_none(cursor),
            type_=_unset_if_none(type),
            status=UNSET if status is None else EventStatus(status),
            tenant_id=_unset_if_none(tenant_id),
            safe_to_repeat=True,
        )

    def list(self, type: Optional[str] = None, status: Optional[str] = None, page_size: int = PAGE_SIZE, tenant_id: Optional[str] = None) -> Iterator[Any]:
        """Every event (newest first; only those sent for tenant_id, when given), page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size, type, status, tenant_id))


class AsyncEvents(Events):
    def list(self, type: Optional[str] = None, status: Optional[str] = None, page_size: int = PAGE_SIZE,  # type: ignore[override]
             tenant_id: Optional[str] = None) -> AsyncIterator[Any]:
        return _every_item_async(lambda cursor: self.page(cursor, page_size, type, status, tenant_id))


class Deliveries:
    """The deliveries of an event: read them with events.get(event_id).deliveries."""

    def __init__(self, call: Any):
        self._call = call

    def retry(self, event_id: int, endpoint_id: str) -> Any:
        """A new round of attempts for a delivery that failed or was cancelled."""
        return self._call(retry_delivery, str(event_id), endpoint_id)

    def retry_now(self, event_id: int, endpoint_id: str) -> Any:
        """The waiting delivery's next attempt, now."""
        return self._call(retry_delivery_now, str(event_id), endpoint_id)

    def cancel(self, event_id: int, endpoint_id: str) -> Any:
        return self._call(cancel_delivery, str(event_id), endpoint_id)


class Endpoints:
    def __init__(self, call: Any):
        self._call = call

    def create(self, url: Optional[str] = None, events: Optional[List[str]] = None, destination: Optional[Dict[str, Any]] = None,
               tenant_id: Optional[str] = None) -> Any:
        """A new endpoint, for an HTTPS url or a broker destination (one of them; docs/destinations.md), e.g.
        {"type": "rabbitmq", "config": {"uri": ..., "exchange": ...}, "credentials": {"username": ..., "password": ...}}.
        The answer carries its signing secret; credentials are write-only (`destination.credentials_set` names them).
        With a tenant_id it is that tenant's, and receives only the events sent for it."""
        fields = {"url": url, "events": events, "destination": destination, "tenant_id": tenant_id}
        return self._call(create_endpoint, body=CreateEndpointRequest.from_dict({k: v for k, v in fields.items() if v is not None}))

    def get(self, endpoint_id: str) -> Any:
        return self._call(get_endpoint, endpoint_id, safe_to_repeat=True)

    def update(
        self, endpoint_id: str, url: Optional[str] = None, events: Optional[List[str]] = None, disabled: Optional[bool] = None, destination: Optional[Dict[str, Any]] = None,
        tenant_id: Any = _KEEP,
    ) -> Any:
        """Changes the fields given. A destination of the endpoint's type sent without credentials keeps the stored ones.
        tenant_id moves the endpoint to that tenant (None: to the account's own); its waiting deliveries end cancelled."""
        fields = {"url": url, "events": events, "disabled": disabled, "destination": destination}
        changes = {k: v for k, v in fields.items() if v is not None}
        if tenant_id is not _KEEP:
            changes["tenant_id"] = tenant_id
        body = UpdateEndpointRequest.from_dict(changes)
        return self._call(update_endpoint, endpoint_id, body=body)

    def delete(self, endpoint_id: str) -> Any:
        return self._call(delete_endpoint, endpoint_id)

    def secret(self, endpoint_id: str) -> str:
        return _then(self._call(get_secret, endpoint_id, safe_to_repeat=True), lambda answer: answer.secret)

    def rotate_secret(self, endpoint_id: str, grace_period_seconds: Optional[int] = None) -> str:
        """A new signing secret, returned; the old one keeps signing for the grace period (the platform's default when None)."""
        body = RotateSecretRequest(grace_period_seconds=_unset_if_none(grace_period_seconds))
        return _then(self._call(rotate_secret, endpoint_id, body=body), lambda answer: answer.secret)

    def recover(self, endpoint_id: str, since: datetime.datetime) -> Any:
        """Delivers again every event since `since` (an aware datetime, e.g. with tzinfo=timezone.utc) whose delivery
        to this endpoint failed."""
        if since.utcoffset() is None:
            # A naive datetime is sent without an offset, which names no one time: the API would refuse it.
            raise ValueError("since needs a time zone: a naive datetime names no one time; pass e.g. datetime(..., tzinfo=timezone.utc)")
        return self._call(recover_endpoint, endpoint_id, body=RecoverRequest(since=since))

    def pause(self, endpoint_id: str) -> Any:
        return self._call(pause_endpoint, endpoint_id)

    def resume(self, endpoint_id: str) -> Any:
        return self._call(resume_endpoint, endpoint_id)

    def retry_now(self, endpoint_id: str, cursor: Optional[str] = None) -> Any:
        """Wakes the endpoint's waiting deliveries (one batch; the answer's next_cursor continues)."""
        return self._call(retry_endpoint_now, endpoint_id, body=RetryNowRequest(cursor=_unset_if_none(cursor)))

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE, tenant_id: Optional[str] = None) -> Any:
        return self._call(list_endpoints, limit=limit, cursor=_unset_if_none(cursor), tenant_id=_unset_if_none(tenant_id), safe_to_repeat=True)

    def list(self, page_size: int = PAGE_SIZE, tenant_id: Optional[str] = None) -> Iterator[Any]:
        """Every endpoint (only tenant_id's, when given), page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size, tenant_id))


class AsyncEndpoints(Endpoints):
    def list(self, page_size: int = PAGE_SIZE, tenant_id: Optional[str] = None) -> AsyncIterator[Any]:  # type: ignore[override]
        return _every_item_async(lambda cursor: self.page(cursor, page_size, tenant_id))


class EventTypes:
    """The account's event-type catalog. A send whose data does not match its type's schema raises PlatformError
    422 schema_mismatch, its `details` naming the failing paths."""

    def __init__(self, call: Any):
        self._call = call

    def create(self, name: str, description: Optional[str] = None, schema: Optional[Dict[str, Any]] = None, example: Optional[Dict[str, Any]] = None) -> Any:
        """Registers a type (a JSON Schema, draft 2020-12, for its data, and an example); a name already there raises 409 event_type_exists."""
        fields = {"name": name, "description": description, "schema": schema, "example": example}
        body = CreateEventTypeRequest.from_dict({k: v for k, v in fields.items() if v is not None})
        return self._call(create_event_type, body=body)

    def get(self, name: str) -> Any:
        return self._call(get_event_type, name, safe_to_repeat=True)

    def update(self, name: str, description: Any = _KEEP, schema: Any = _KEEP, example: Any = _KEEP) -> Any:
        """Changes the fields given; schema=None or example=None removes it. Raises 409 event_type_changed when another
        call changed the schema or example this change was checked against."""
        fields = {"description": description, "schema": schema, "example": example}
        body = UpdateEventTypeRequest.from_dict({k: v for k, v in fields.items() if v is not _KEEP})
        return self._call(update_event_type, name, body=body)

    def delete(self, name: str) -> Any:
        """Its events are accepted unchecked from then on."""
        return self._call(delete_event_type, name)

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE) -> Any:
        return self._call(list_event_types, limit=limit, cursor=_unset_if_none(cursor), safe_to_repeat=True)

    def list(self, page_size: int = PAGE_SIZE) -> Iterator[Any]:
        """Every type, by name, page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size))


class AsyncEventTypes(EventTypes):
    def list(self, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        return _every_item_async(lambda cursor: self.page(cursor, page_size))


class Tenants:
    """The account's tenants: each appears with its first endpoint (endpoints.create(tenant_id=...)) and goes with its last."""

    def __init__(self, call: Any):
        self._call = call

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE) -> Any:
        return self._call(list_tenants, limit=limit, cursor=_unset_if_none(cursor), safe_to_repeat=True)

    def list(self, page_size: int = PAGE_SIZE) -> Iterator[Any]:
        """Every tenant (newest first, with its endpoint_count), page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size))

    def delete(self, tenant_id: str) -> Any:
        """Deletes every endpoint of the tenant (their waiting deliveries end cancelled); its events stay. No endpoint: 404."""
        return self._call(delete_tenant, tenant_id)


class AsyncTenants(Tenants):
    def list(self, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        return _every_item_async(lambda cursor: self.page(cursor, page_size))


class PortalSessions:
    """Portal sessions, made and revoked with the account's key (a session's own token gets 403 here)."""

    def __init__(self, call: Any):
        self._call = call

    def create(self, tenant_id: str, expires_in_seconds: Optional[int] = None, read_only: Optional[bool] = None) -> Any:
        """A token for one tenant (default 1 h, at most 24 h), shown only here, and its portal url: Client(base_url, session.token)
        sees and changes only that tenant's endpoints and events; a read-only one raises PlatformError 403 portal_read_only on a change."""
        body = CreatePortalSessionRequest(tenant_id=tenant_id, expires_in_seconds=_unset_if_none(expires_in_seconds), read_only=_unset_if_none(read_only))
        return self._call(create_portal_session, body=body)

    def revoke_all(self) -> int:
        """Ends every session of the account at once (401 invalid_portal_token from then on); returns how many."""
        return _then(self._call(revoke_portal_sessions), lambda answer: answer.revoked)


def _every_item(page: Callable[[Optional[str]], Any]) -> Iterator[Any]:
    """Every item of every page, following next_cursor until it is empty."""
    cursor = None
    while True:
        answer = page(cursor)
        yield from answer.data
        cursor = answer.next_cursor
        if not cursor:
            return


async def _every_item_async(page: Callable[[Optional[str]], Awaitable[Any]]) -> AsyncIterator[Any]:
    cursor = None
    while True:
        answer = await page(cursor)
        for item in answer.data:
            yield item
        cursor = answer.next_cursor
        if not cursor:
            return


def _then(result: Any, f: Any) -> Any:
    """f(result), for a value or for an awaitable (AsyncClient)."""
    if hasattr(result, "__await__"):
        async def awaited() -> Any:
            return f(await result)
        return awaited()
    return f(result)
