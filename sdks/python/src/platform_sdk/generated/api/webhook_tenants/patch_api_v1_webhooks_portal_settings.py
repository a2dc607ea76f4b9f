from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.portal_settings import PortalSettings
from ...models.update_portal_settings_request import UpdatePortalSettingsRequest
from typing import cast



def _get_kwargs(
    *,
    body: UpdatePortalSettingsRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/webhooks/portal-settings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PortalSettings | None:
    if response.status_code == 200:
        response_200 = PortalSettings.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PortalSettings]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdatePortalSettingsRequest,

) -> Response[Error | PortalSettings]:
    """ Change the tenants' portal page settings

     The fields given are set, the others kept. `allowed_origins` is the page's CSP `frame-ancestors`
    from the next page load on: only those origins may show it in an iframe (docs/tenants-and-portal.md,
    "Embedding").

    Args:
        body (UpdatePortalSettingsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSettings]
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
    body: UpdatePortalSettingsRequest,

) -> Error | PortalSettings | None:
    """ Change the tenants' portal page settings

     The fields given are set, the others kept. `allowed_origins` is the page's CSP `frame-ancestors`
    from the next page load on: only those origins may show it in an iframe (docs/tenants-and-portal.md,
    "Embedding").

    Args:
        body (UpdatePortalSettingsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSettings
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdatePortalSettingsRequest,

) -> Response[Error | PortalSettings]:
    """ Change the tenants' portal page settings

     The fields given are set, the others kept. `allowed_origins` is the page's CSP `frame-ancestors`
    from the next page load on: only those origins may show it in an iframe (docs/tenants-and-portal.md,
    "Embedding").

    Args:
        body (UpdatePortalSettingsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSettings]
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
    body: UpdatePortalSettingsRequest,

) -> Error | PortalSettings | None:
    """ Change the tenants' portal page settings

     The fields given are set, the others kept. `allowed_origins` is the page's CSP `frame-ancestors`
    from the next page load on: only those origins may show it in an iframe (docs/tenants-and-portal.md,
    "Embedding").

    Args:
        body (UpdatePortalSettingsRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSettings
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
