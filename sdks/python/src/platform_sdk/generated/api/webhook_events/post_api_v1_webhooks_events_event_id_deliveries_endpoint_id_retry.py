from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delivery import Delivery
from ...models.error import Error
from typing import cast



def _get_kwargs(
    event_id: str,
    endpoint_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/events/{event_id}/deliveries/{endpoint_id}/retry".format(event_id=quote(str(event_id), safe=""),endpoint_id=quote(str(endpoint_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Delivery | Error | None:
    if response.status_code == 202:
        response_202 = Delivery.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Delivery | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    endpoint_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Delivery | Error]:
    """ Retry a failed or cancelled delivery (a new round from attempt 1)

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.
        endpoint_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
endpoint_id=endpoint_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    event_id: str,
    endpoint_id: str,
    *,
    client: AuthenticatedClient,

) -> Delivery | Error | None:
    """ Retry a failed or cancelled delivery (a new round from attempt 1)

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.
        endpoint_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
     """


    return sync_detailed(
        event_id=event_id,
endpoint_id=endpoint_id,
client=client,

    ).parsed

async def asyncio_detailed(
    event_id: str,
    endpoint_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Delivery | Error]:
    """ Retry a failed or cancelled delivery (a new round from attempt 1)

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.
        endpoint_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Delivery | Error]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
endpoint_id=endpoint_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    event_id: str,
    endpoint_id: str,
    *,
    client: AuthenticatedClient,

) -> Delivery | Error | None:
    """ Retry a failed or cancelled delivery (a new round from attempt 1)

    Args:
        event_id (str): The event id: a positive integer in decimal without leading zeros (else
            400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id. Example:
            1.
        endpoint_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Delivery | Error
     """


    return (await asyncio_detailed(
        event_id=event_id,
endpoint_id=endpoint_id,
client=client,

    )).parsed
