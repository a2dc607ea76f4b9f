from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.rotate_secret_request import RotateSecretRequest
from ...models.secret import Secret
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: RotateSecretRequest | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/endpoints/{id}/secret/rotate".format(id=quote(str(id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Secret | None:
    if response.status_code == 200:
        response_200 = Secret.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Secret]:
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
    body: RotateSecretRequest | Unset = UNSET,

) -> Response[Error | Secret]:
    """ Rotate the signing secret; the new one signs every later attempt, the old one keeps signing webhook-
    signature during a grace period

     Every attempt carries `X-Webhook-Signature` (the spec scheme, newest secret only) and the Standard
    Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (one `v1,<base64>` entry
    per secret alive, newest first, space-separated). See docs/receiving.md.

    Args:
        id (str):
        body (RotateSecretRequest | Unset): Optional; an empty body rotates with the default grace
            period. At most 5 secrets are alive at once: a rotation that would make more ends the
            grace of those that would expire first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Secret]
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
    body: RotateSecretRequest | Unset = UNSET,

) -> Error | Secret | None:
    """ Rotate the signing secret; the new one signs every later attempt, the old one keeps signing webhook-
    signature during a grace period

     Every attempt carries `X-Webhook-Signature` (the spec scheme, newest secret only) and the Standard
    Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (one `v1,<base64>` entry
    per secret alive, newest first, space-separated). See docs/receiving.md.

    Args:
        id (str):
        body (RotateSecretRequest | Unset): Optional; an empty body rotates with the default grace
            period. At most 5 secrets are alive at once: a rotation that would make more ends the
            grace of those that would expire first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Secret
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
    body: RotateSecretRequest | Unset = UNSET,

) -> Response[Error | Secret]:
    """ Rotate the signing secret; the new one signs every later attempt, the old one keeps signing webhook-
    signature during a grace period

     Every attempt carries `X-Webhook-Signature` (the spec scheme, newest secret only) and the Standard
    Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (one `v1,<base64>` entry
    per secret alive, newest first, space-separated). See docs/receiving.md.

    Args:
        id (str):
        body (RotateSecretRequest | Unset): Optional; an empty body rotates with the default grace
            period. At most 5 secrets are alive at once: a rotation that would make more ends the
            grace of those that would expire first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Secret]
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
    body: RotateSecretRequest | Unset = UNSET,

) -> Error | Secret | None:
    """ Rotate the signing secret; the new one signs every later attempt, the old one keeps signing webhook-
    signature during a grace period

     Every attempt carries `X-Webhook-Signature` (the spec scheme, newest secret only) and the Standard
    Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (one `v1,<base64>` entry
    per secret alive, newest first, space-separated). See docs/receiving.md.

    Args:
        id (str):
        body (RotateSecretRequest | Unset): Optional; an empty body rotates with the default grace
            period. At most 5 secrets are alive at once: a rotation that would make more ends the
            grace of those that would expire first.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Secret
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
