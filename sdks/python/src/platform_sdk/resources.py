"""Events, endpoints and deliveries: each method is one generated operation called through the retry policy.
The same classes serve Client and AsyncClient (a method returns the caller's result: a value, or an awaitable);
only the paging iterators differ (a generator, an async generator)."""
import datetime
import uuid
from typing import Any, AsyncIterator, Dict, Iterator, List, Optional

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
from .generated.models import (
    CreateEndpointRequest,
    EventData,
    EventStatus,
    RecoverRequest,
    RetryNowRequest,
    RotateSecretRequest,
    SendEventRequest,
    UpdateEndpointRequest,
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
        cursor = None
        while True:
            page = self.page(cursor, page_size, type, status)
            yield from page.data
            cursor = page.next_cursor
            if not cursor:
                return


class AsyncEvents(Events):
    async def list(self, type: Optional[str] = None, status: Optional[str] = None, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        cursor = None
        while True:
            page = await self.page(cursor, page_size, type, status)
            for event in page.data:
                yield event
            cursor = page.next_cursor
            if not cursor:
                return


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
        cursor = None
        while True:
            page = self.page(cursor, page_size)
            yield from page.data
            cursor = page.next_cursor
            if not cursor:
                return


class AsyncEndpoints(Endpoints):
    async def list(self, page_size: int = PAGE_SIZE) -> AsyncIterator[Any]:  # type: ignore[override]
        cursor = None
        while True:
            page = await self.page(cursor, page_size)
            for endpoint in page.data:
                yield endpoint
            cursor = page.next_cursor
            if not cursor:
                return


def _then(result: Any, f: Any) -> Any:
    """f(result), for a value or for an awaitable (AsyncClient)."""
    if hasattr(result, "__await__"):
        async def awaited() -> Any:
            return f(await result)
        return awaited()
    return f(result)
