from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.send_event_request import SendEventRequest
from ...models.sent_event import SentEvent
from typing import cast



def _get_kwargs(
    *,
    body: SendEventRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/events",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SentEvent | None:
    if response.status_code == 200:
        response_200 = SentEvent.from_dict(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = SentEvent.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | SentEvent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SendEventRequest,

) -> Response[Error | SentEvent]:
    """ Ingest an event; it is delivered to every matching endpoint

     New event → 202, answered once the event is stored (its delivery workflows start right after, in the
    background; a crash of this process is recovered by another). A repeat of the same idempotency key
    (body field or `Idempotency-Key` header) by the same account within 24 h → 200 with the original
    body, and nothing is delivered again. When the platform is saturated → 503 `overloaded` with Retry-
    After; nothing was stored and the call is not counted against the limits (it is refused before its
    body is read, so a malformed body may get this 503 before its 400). A `type` starting `platform.` →
    422 `reserved_event_type`: those are the operational events the platform emits about the account's
    own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`,
    `platform.delivery.exhausted`), which an endpoint receives by subscribing to `platform.*` or to the
    exact type (`*` does not match them).

    Args:
        body (SendEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SentEvent]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: SendEventRequest,

) -> Error | SentEvent | None:
    """ Ingest an event; it is delivered to every matching endpoint

     New event → 202, answered once the event is stored (its delivery workflows start right after, in the
    background; a crash of this process is recovered by another). A repeat of the same idempotency key
    (body field or `Idempotency-Key` header) by the same account within 24 h → 200 with the original
    body, and nothing is delivered again. When the platform is saturated → 503 `overloaded` with Retry-
    After; nothing was stored and the call is not counted against the limits (it is refused before its
    body is read, so a malformed body may get this 503 before its 400). A `type` starting `platform.` →
    422 `reserved_event_type`: those are the operational events the platform emits about the account's
    own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`,
    `platform.delivery.exhausted`), which an endpoint receives by subscribing to `platform.*` or to the
    exact type (`*` does not match them).

    Args:
        body (SendEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SentEvent
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SendEventRequest,

) -> Response[Error | SentEvent]:
    """ Ingest an event; it is delivered to every matching endpoint

     New event → 202, answered once the event is stored (its delivery workflows start right after, in the
    background; a crash of this process is recovered by another). A repeat of the same idempotency key
    (body field or `Idempotency-Key` header) by the same account within 24 h → 200 with the original
    body, and nothing is delivered again. When the platform is saturated → 503 `overloaded` with Retry-
    After; nothing was stored and the call is not counted against the limits (it is refused before its
    body is read, so a malformed body may get this 503 before its 400). A `type` starting `platform.` →
    422 `reserved_event_type`: those are the operational events the platform emits about the account's
    own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`,
    `platform.delivery.exhausted`), which an endpoint receives by subscribing to `platform.*` or to the
    exact type (`*` does not match them).

    Args:
        body (SendEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SentEvent]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SendEventRequest,

) -> Error | SentEvent | None:
    """ Ingest an event; it is delivered to every matching endpoint

     New event → 202, answered once the event is stored (its delivery workflows start right after, in the
    background; a crash of this process is recovered by another). A repeat of the same idempotency key
    (body field or `Idempotency-Key` header) by the same account within 24 h → 200 with the original
    body, and nothing is delivered again. When the platform is saturated → 503 `overloaded` with Retry-
    After; nothing was stored and the call is not counted against the limits (it is refused before its
    body is read, so a malformed body may get this 503 before its 400). A `type` starting `platform.` →
    422 `reserved_event_type`: those are the operational events the platform emits about the account's
    own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`,
    `platform.delivery.exhausted`), which an endpoint receives by subscribing to `platform.*` or to the
    exact type (`*` does not match them).

    Args:
        body (SendEventRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SentEvent
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
