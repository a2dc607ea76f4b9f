from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_event_type_request import CreateEventTypeRequest
from ...models.error import Error
from ...models.event_type import EventType
from typing import cast



def _get_kwargs(
    *,
    body: CreateEventTypeRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/event-types",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventType | None:
    if response.status_code == 201:
        response_201 = EventType.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventType]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateEventTypeRequest,

) -> Response[Error | EventType]:
    """ Register an event type, with an optional JSON Schema for its data

     A name already in the catalog → 409 `event_type_exists` (change it with PATCH). An account has at
    most 200 event types: one more → 422 `event_type_limit_reached`. Events of a type with a schema are
    checked against it at ingest; types not in the catalog are accepted as before.

    Args:
        body (CreateEventTypeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventType]
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
    body: CreateEventTypeRequest,

) -> Error | EventType | None:
    """ Register an event type, with an optional JSON Schema for its data

     A name already in the catalog → 409 `event_type_exists` (change it with PATCH). An account has at
    most 200 event types: one more → 422 `event_type_limit_reached`. Events of a type with a schema are
    checked against it at ingest; types not in the catalog are accepted as before.

    Args:
        body (CreateEventTypeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventType
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateEventTypeRequest,

) -> Response[Error | EventType]:
    """ Register an event type, with an optional JSON Schema for its data

     A name already in the catalog → 409 `event_type_exists` (change it with PATCH). An account has at
    most 200 event types: one more → 422 `event_type_limit_reached`. Events of a type with a schema are
    checked against it at ingest; types not in the catalog are accepted as before.

    Args:
        body (CreateEventTypeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventType]
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
    body: CreateEventTypeRequest,

) -> Error | EventType | None:
    """ Register an event type, with an optional JSON Schema for its data

     A name already in the catalog → 409 `event_type_exists` (change it with PATCH). An account has at
    most 200 event types: one more → 422 `event_type_limit_reached`. Events of a type with a schema are
    checked against it at ingest; types not in the catalog are accepted as before.

    Args:
        body (CreateEventTypeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventType
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
