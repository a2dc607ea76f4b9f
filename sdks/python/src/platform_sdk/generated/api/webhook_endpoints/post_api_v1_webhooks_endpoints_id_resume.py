from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.endpoint import Endpoint
from ...models.error import Error
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/endpoints/{id}/resume".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Endpoint | Error | None:
    if response.status_code == 200:
        response_200 = Endpoint.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Endpoint | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Endpoint | Error]:
    """ Resume a paused endpoint: every delivery that waits makes its attempt now

     Clears `paused`, then wakes every delivery of the endpoint that waits, oldest event first, from the
    Temporal workflow `endpoint-resume-<endpoint id>`: each makes the attempt that came due during the
    pause, with its own attempt number, and the schedule goes on from it. Answers once the flag is
    cleared and the waking has started. Resuming an endpoint that is not paused changes nothing.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | Error]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Endpoint | Error | None:
    """ Resume a paused endpoint: every delivery that waits makes its attempt now

     Clears `paused`, then wakes every delivery of the endpoint that waits, oldest event first, from the
    Temporal workflow `endpoint-resume-<endpoint id>`: each makes the attempt that came due during the
    pause, with its own attempt number, and the schedule goes on from it. Answers once the flag is
    cleared and the waking has started. Resuming an endpoint that is not paused changes nothing.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | Error
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Endpoint | Error]:
    """ Resume a paused endpoint: every delivery that waits makes its attempt now

     Clears `paused`, then wakes every delivery of the endpoint that waits, oldest event first, from the
    Temporal workflow `endpoint-resume-<endpoint id>`: each makes the attempt that came due during the
    pause, with its own attempt number, and the schedule goes on from it. Answers once the flag is
    cleared and the waking has started. Resuming an endpoint that is not paused changes nothing.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Endpoint | Error]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Endpoint | Error | None:
    """ Resume a paused endpoint: every delivery that waits makes its attempt now

     Clears `paused`, then wakes every delivery of the endpoint that waits, oldest event first, from the
    Temporal workflow `endpoint-resume-<endpoint id>`: each makes the attempt that came due during the
    pause, with its own attempt number, and the schedule goes on from it. Answers once the flag is
    cleared and the waking has started. Resuming an endpoint that is not paused changes nothing.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Endpoint | Error
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
