from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_with_deliveries import EventWithDeliveries
from typing import cast



def _get_kwargs(
    event_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks/events/{event_id}".format(event_id=quote(str(event_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventWithDeliveries | None:
    if response.status_code == 200:
        response_200 = EventWithDeliveries.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventWithDeliveries]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Error | EventWithDeliveries]:
    """ Delivery status and history of an event

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventWithDeliveries]
     """


    kwargs = _get_kwargs(
        event_id=event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    event_id: str,
    *,
    client: AuthenticatedClient,

) -> Error | EventWithDeliveries | None:
    """ Delivery status and history of an event

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventWithDeliveries
     """


    return sync_detailed(
        event_id=event_id,
client=client,

    ).parsed

async def asyncio_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Error | EventWithDeliveries]:
    """ Delivery status and history of an event

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventWithDeliveries]
     """


    kwargs = _get_kwargs(
        event_id=event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    event_id: str,
    *,
    client: AuthenticatedClient,

) -> Error | EventWithDeliveries | None:
    """ Delivery status and history of an event

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventWithDeliveries
     """


    return (await asyncio_detailed(
        event_id=event_id,
client=client,

    )).parsed
