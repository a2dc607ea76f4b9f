from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from typing import cast



def _get_kwargs(
    tenant_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/webhooks/tenants/{tenant_id}".format(tenant_id=quote(str(tenant_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Any | Error]:
    """ Delete a tenant: its endpoints are deleted, and their waiting deliveries end cancelled

     Each of the tenant's endpoints is deleted as `DELETE /api/v1/webhooks/endpoints/{id}` deletes it
    (its pending retries end `cancelled`, a page at a time), one endpoint after another. Its portal
    sessions end first (their tokens are 401 from then on). Its events stay, and can still be listed
    with `?tenant_id=`. An endpoint created for the tenant with the key while this runs may be left. A
    tenant with neither endpoint nor portal session → 404.

    Args:
        tenant_id (str): Your customer this belongs to, named by your own id for it: must be 1 to
            128 characters of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is
            delivered only to the matching endpoints of that tenant; an event without one only to the
            account's endpoints that have none. One tenant's events never reach another tenant, and
            there is no broadcast to every tenant (docs/tenants-and-portal.md). Example: cus_8f14e45f.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        tenant_id=tenant_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant_id: str,
    *,
    client: AuthenticatedClient,

) -> Any | Error | None:
    """ Delete a tenant: its endpoints are deleted, and their waiting deliveries end cancelled

     Each of the tenant's endpoints is deleted as `DELETE /api/v1/webhooks/endpoints/{id}` deletes it
    (its pending retries end `cancelled`, a page at a time), one endpoint after another. Its portal
    sessions end first (their tokens are 401 from then on). Its events stay, and can still be listed
    with `?tenant_id=`. An endpoint created for the tenant with the key while this runs may be left. A
    tenant with neither endpoint nor portal session → 404.

    Args:
        tenant_id (str): Your customer this belongs to, named by your own id for it: must be 1 to
            128 characters of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is
            delivered only to the matching endpoints of that tenant; an event without one only to the
            account's endpoints that have none. One tenant's events never reach another tenant, and
            there is no broadcast to every tenant (docs/tenants-and-portal.md). Example: cus_8f14e45f.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return sync_detailed(
        tenant_id=tenant_id,
client=client,

    ).parsed

async def asyncio_detailed(
    tenant_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Any | Error]:
    """ Delete a tenant: its endpoints are deleted, and their waiting deliveries end cancelled

     Each of the tenant's endpoints is deleted as `DELETE /api/v1/webhooks/endpoints/{id}` deletes it
    (its pending retries end `cancelled`, a page at a time), one endpoint after another. Its portal
    sessions end first (their tokens are 401 from then on). Its events stay, and can still be listed
    with `?tenant_id=`. An endpoint created for the tenant with the key while this runs may be left. A
    tenant with neither endpoint nor portal session → 404.

    Args:
        tenant_id (str): Your customer this belongs to, named by your own id for it: must be 1 to
            128 characters of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is
            delivered only to the matching endpoints of that tenant; an event without one only to the
            account's endpoints that have none. One tenant's events never reach another tenant, and
            there is no broadcast to every tenant (docs/tenants-and-portal.md). Example: cus_8f14e45f.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
     """


    kwargs = _get_kwargs(
        tenant_id=tenant_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant_id: str,
    *,
    client: AuthenticatedClient,

) -> Any | Error | None:
    """ Delete a tenant: its endpoints are deleted, and their waiting deliveries end cancelled

     Each of the tenant's endpoints is deleted as `DELETE /api/v1/webhooks/endpoints/{id}` deletes it
    (its pending retries end `cancelled`, a page at a time), one endpoint after another. Its portal
    sessions end first (their tokens are 401 from then on). Its events stay, and can still be listed
    with `?tenant_id=`. An endpoint created for the tenant with the key while this runs may be left. A
    tenant with neither endpoint nor portal session → 404.

    Args:
        tenant_id (str): Your customer this belongs to, named by your own id for it: must be 1 to
            128 characters of A-Z a-z 0-9 . _ : -, and not . or ... An event with a `tenant_id` is
            delivered only to the matching endpoints of that tenant; an event without one only to the
            account's endpoints that have none. One tenant's events never reach another tenant, and
            there is no broadcast to every tenant (docs/tenants-and-portal.md). Example: cus_8f14e45f.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
     """


    return (await asyncio_detailed(
        tenant_id=tenant_id,
client=client,

    )).parsed
