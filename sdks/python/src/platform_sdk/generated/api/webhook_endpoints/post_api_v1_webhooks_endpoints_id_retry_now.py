from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.retry_now_request import RetryNowRequest
from ...models.retry_now_result import RetryNowResult
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: RetryNowRequest | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/endpoints/{id}/retry-now".format(id=quote(str(id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | RetryNowResult | None:
    if response.status_code == 200:
        response_200 = RetryNowResult.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | RetryNowResult]:
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
    body: RetryNowRequest | Unset = UNSET,

) -> Response[Error | RetryNowResult]:
    """ Make the next attempt now of every delivery to the endpoint waiting for a retry

     Wakes, as `.../deliveries/{endpoint_id}/retry-now` does, the endpoint's `retrying` deliveries: at
    most 100 per call, 10 at a time, in delivery id order. Answers how many were woken, and
    `next_cursor` while more may follow: send it back as `cursor` to go on. No worker took the call's
    requests within 10 s in all → 503 `service_unavailable`; those woken stay woken, and the repeat
    counts them in `not_waiting`.

    Args:
        id (str):
        body (RetryNowRequest | Unset): Optional; an empty body starts from the first waiting
            delivery.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RetryNowResult]
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
    body: RetryNowRequest | Unset = UNSET,

) -> Error | RetryNowResult | None:
    """ Make the next attempt now of every delivery to the endpoint waiting for a retry

     Wakes, as `.../deliveries/{endpoint_id}/retry-now` does, the endpoint's `retrying` deliveries: at
    most 100 per call, 10 at a time, in delivery id order. Answers how many were woken, and
    `next_cursor` while more may follow: send it back as `cursor` to go on. No worker took the call's
    requests within 10 s in all → 503 `service_unavailable`; those woken stay woken, and the repeat
    counts them in `not_waiting`.

    Args:
        id (str):
        body (RetryNowRequest | Unset): Optional; an empty body starts from the first waiting
            delivery.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RetryNowResult
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
    body: RetryNowRequest | Unset = UNSET,

) -> Response[Error | RetryNowResult]:
    """ Make the next attempt now of every delivery to the endpoint waiting for a retry

     Wakes, as `.../deliveries/{endpoint_id}/retry-now` does, the endpoint's `retrying` deliveries: at
    most 100 per call, 10 at a time, in delivery id order. Answers how many were woken, and
    `next_cursor` while more may follow: send it back as `cursor` to go on. No worker took the call's
    requests within 10 s in all → 503 `service_unavailable`; those woken stay woken, and the repeat
    counts them in `not_waiting`.

    Args:
        id (str):
        body (RetryNowRequest | Unset): Optional; an empty body starts from the first waiting
            delivery.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RetryNowResult]
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
    body: RetryNowRequest | Unset = UNSET,

) -> Error | RetryNowResult | None:
    """ Make the next attempt now of every delivery to the endpoint waiting for a retry

     Wakes, as `.../deliveries/{endpoint_id}/retry-now` does, the endpoint's `retrying` deliveries: at
    most 100 per call, 10 at a time, in delivery id order. Answers how many were woken, and
    `next_cursor` while more may follow: send it back as `cursor` to go on. No worker took the call's
    requests within 10 s in all → 503 `service_unavailable`; those woken stay woken, and the repeat
    counts them in `not_waiting`.

    Args:
        id (str):
        body (RetryNowRequest | Unset): Optional; an empty body starts from the first waiting
            delivery.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RetryNowResult
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
