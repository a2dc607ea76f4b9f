from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_portal_session_request import CreatePortalSessionRequest
from ...models.error import Error
from ...models.portal_session import PortalSession
from typing import cast



def _get_kwargs(
    *,
    body: CreatePortalSessionRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/portal-sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PortalSession | None:
    if response.status_code == 201:
        response_201 = PortalSession.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PortalSession]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePortalSessionRequest,

) -> Response[Error | PortalSession]:
    """ Make a short-lived token for one tenant's people (a portal session)

     The token works as `Authorization: Bearer <token>` on the endpoint and event paths of this API
    (endpoints, their secret, rotation, pause and resume, retry-now, recovery; events, their deliveries;
    ingest, as a test event) and sees and changes only the tenant's own records: any other record is a
    404, naming another tenant a 403 `portal_not_allowed`, any other path a 403. A read-only token gets
    403 `portal_read_only` on every change. An expired, revoked or forged token is a 401
    `invalid_portal_token`. Its calls count against the account's limits, with the same headers. The
    token is stored only as its SHA-256 and is never an API key.

    Args:
        body (CreatePortalSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSession]
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
    body: CreatePortalSessionRequest,

) -> Error | PortalSession | None:
    """ Make a short-lived token for one tenant's people (a portal session)

     The token works as `Authorization: Bearer <token>` on the endpoint and event paths of this API
    (endpoints, their secret, rotation, pause and resume, retry-now, recovery; events, their deliveries;
    ingest, as a test event) and sees and changes only the tenant's own records: any other record is a
    404, naming another tenant a 403 `portal_not_allowed`, any other path a 403. A read-only token gets
    403 `portal_read_only` on every change. An expired, revoked or forged token is a 401
    `invalid_portal_token`. Its calls count against the account's limits, with the same headers. The
    token is stored only as its SHA-256 and is never an API key.

    Args:
        body (CreatePortalSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSession
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePortalSessionRequest,

) -> Response[Error | PortalSession]:
    """ Make a short-lived token for one tenant's people (a portal session)

     The token works as `Authorization: Bearer <token>` on the endpoint and event paths of this API
    (endpoints, their secret, rotation, pause and resume, retry-now, recovery; events, their deliveries;
    ingest, as a test event) and sees and changes only the tenant's own records: any other record is a
    404, naming another tenant a 403 `portal_not_allowed`, any other path a 403. A read-only token gets
    403 `portal_read_only` on every change. An expired, revoked or forged token is a 401
    `invalid_portal_token`. Its calls count against the account's limits, with the same headers. The
    token is stored only as its SHA-256 and is never an API key.

    Args:
        body (CreatePortalSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PortalSession]
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
    body: CreatePortalSessionRequest,

) -> Error | PortalSession | None:
    """ Make a short-lived token for one tenant's people (a portal session)

     The token works as `Authorization: Bearer <token>` on the endpoint and event paths of this API
    (endpoints, their secret, rotation, pause and resume, retry-now, recovery; events, their deliveries;
    ingest, as a test event) and sees and changes only the tenant's own records: any other record is a
    404, naming another tenant a 403 `portal_not_allowed`, any other path a 403. A read-only token gets
    403 `portal_read_only` on every change. An expired, revoked or forged token is a 401
    `invalid_portal_token`. Its calls count against the account's limits, with the same headers. The
    token is stored only as its SHA-256 and is never an API key.

    Args:
        body (CreatePortalSessionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PortalSession
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
