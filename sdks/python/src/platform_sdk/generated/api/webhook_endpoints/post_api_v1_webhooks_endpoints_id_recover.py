from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.recover_request import RecoverRequest
from ...models.recovery import Recovery
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: RecoverRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/endpoints/{id}/recover".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Recovery | None:
    if response.status_code == 202:
        response_202 = Recovery.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Recovery]:
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
    body: RecoverRequest,

) -> Response[Error | Recovery]:
    """ Start again every failed or cancelled delivery to the endpoint since a time

     Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since
    `since` starts a new round, as a manual retry would (same rules: at most 10 rounds; one in flight is
    left alone). Answers 202 with how many deliveries the recovery starts again (at most 1,000, the
    oldest first) while it runs as the Temporal workflow `recover-<endpoint id>`. While it runs, calling
    again answers the same recovery. `since` more than 7 days back or in the future → 400; a disabled
    endpoint → 409 `endpoint_disabled` (enable it first).

    Args:
        id (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Recovery]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: RecoverRequest,

) -> Error | Recovery | None:
    """ Start again every failed or cancelled delivery to the endpoint since a time

     Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since
    `since` starts a new round, as a manual retry would (same rules: at most 10 rounds; one in flight is
    left alone). Answers 202 with how many deliveries the recovery starts again (at most 1,000, the
    oldest first) while it runs as the Temporal workflow `recover-<endpoint id>`. While it runs, calling
    again answers the same recovery. `since` more than 7 days back or in the future → 400; a disabled
    endpoint → 409 `endpoint_disabled` (enable it first).

    Args:
        id (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Recovery
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: RecoverRequest,

) -> Response[Error | Recovery]:
    """ Start again every failed or cancelled delivery to the endpoint since a time

     Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since
    `since` starts a new round, as a manual retry would (same rules: at most 10 rounds; one in flight is
    left alone). Answers 202 with how many deliveries the recovery starts again (at most 1,000, the
    oldest first) while it runs as the Temporal workflow `recover-<endpoint id>`. While it runs, calling
    again answers the same recovery. `since` more than 7 days back or in the future → 400; a disabled
    endpoint → 409 `endpoint_disabled` (enable it first).

    Args:
        id (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Recovery]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: RecoverRequest,

) -> Error | Recovery | None:
    """ Start again every failed or cancelled delivery to the endpoint since a time

     Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since
    `since` starts a new round, as a manual retry would (same rules: at most 10 rounds; one in flight is
    left alone). Answers 202 with how many deliveries the recovery starts again (at most 1,000, the
    oldest first) while it runs as the Temporal workflow `recover-<endpoint id>`. While it runs, calling
    again answers the same recovery. `since` more than 7 days back or in the future → 400; a disabled
    endpoint → 409 `endpoint_disabled` (enable it first).

    Args:
        id (str):
        body (RecoverRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Recovery
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
