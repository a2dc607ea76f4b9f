"""Events, endpoints, deliveries and event types: each method is one generated operation called through the retry policy.
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
from .generated.models import (
    CreateEndpointRequest,
    CreateEventTypeRequest,
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


def _unset_if_none(value: Any) -> Any:
    return UNSET if value is None else value


class Events:
    def __init__(self, call: Any):
        self._call = call

    def send(self, type: str, data: Dict[str, Any], idempotency_key: Optional[str] = None) -> Any:
        """Ingests an event. Without an idempotency key one is made (a UUID), and every retry of this call
        sends the same one: a send repeated after a time-out returns the original event, never a second one."""
        body = SendEventRequest(
            type_=type,
            data=EventData.from_dict(data),
            idempotency_key=idempotency_key or str(uuid.uuid4()),
        )
        return self._call(send_event, body=body, safe_to_repeat=True)

    def get(self, event_id: int) -> Any:
        """The event with its deliveries (one per matching endpoint) and their attempts."""
        return self._call(get_event, str(event_id), safe_to_repeat=True)

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE, type: Optional[str] = None, status: Optional[str] = None) -> Any:
        return self._call(
            list_events,
            limit=limit,
            cursor=_unset_if_none(cursor),
            type_=_unset_if_none(type),
            status=UNSET if status is None else EventStatus(status),
            safe_to_repeat=True,
        )

    def list(self, type: Optional[str] = None, status: Optional[str] = None, page_size: int = PAGE_SIZE) -> Iterator[Any]:
        """Every event (newest first), page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size, type, status))


class AsyncEvents(Events):
    def list(self, type: Optional[str] = None, status: Optional[str] = None, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        return _every_item_async(lambda cursor: self.page(cursor, page_size, type, status))


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

    def create(self, url: str, events: Optional[List[str]] = None) -> Any:
        """A new endpoint; the answer carries its signing secret."""
        return self._call(create_endpoint, body=CreateEndpointRequest(url=url, events=_unset_if_none(events)))

    def get(self, endpoint_id: str) -> Any:
        return self._call(get_endpoint, endpoint_id, safe_to_repeat=True)

    def update(self, endpoint_id: str, url: Optional[str] = None, events: Optional[List[str]] = None, disabled: Optional[bool] = None) -> Any:
        body = UpdateEndpointRequest(url=_unset_if_none(url), events=_unset_if_none(events), disabled=_unset_if_none(disabled))
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
        """Delivers again every event since `since` whose delivery to this endpoint failed."""
        return self._call(recover_endpoint, endpoint_id, body=RecoverRequest(since=since))

    def pause(self, endpoint_id: str) -> Any:
        return self._call(pause_endpoint, endpoint_id)

    def resume(self, endpoint_id: str) -> Any:
        return self._call(resume_endpoint, endpoint_id)

    def retry_now(self, endpoint_id: str, cursor: Optional[str] = None) -> Any:
        """Wakes the endpoint's waiting deliveries (one batch; the answer's next_cursor continues)."""
        return self._call(retry_endpoint_now, endpoint_id, body=RetryNowRequest(cursor=_unset_if_none(cursor)))

    def page(self, cursor: Optional[str] = None, limit: int = PAGE_SIZE) -> Any:
        return self._call(list_endpoints, limit=limit, cursor=_unset_if_none(cursor), safe_to_repeat=True)

    def list(self, page_size: int = PAGE_SIZE) -> Iterator[Any]:
        """Every endpoint, page after page."""
        return _every_item(lambda cursor: self.page(cursor, page_size))


class AsyncEndpoints(Endpoints):
    def list(self, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        return _every_item_async(lambda cursor: self.page(cursor, page_size))


_KEEP: Any = object()


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
