from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.catalog import Catalog
from ...models.estimator_error import EstimatorError
from ...models.get_api_cost_estimator_category import GetApiCostEstimatorCategory
from ...models.get_api_cost_estimator_provider import GetApiCostEstimatorProvider
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    provider: GetApiCostEstimatorProvider | Unset = UNSET,
    category: GetApiCostEstimatorCategory | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_provider: str | Unset = UNSET
    if not isinstance(provider, Unset):
        json_provider = provider.value

    params["provider"] = json_provider

    json_category: str | Unset = UNSET
    if not isinstance(category, Unset):
        json_category = category.value

    params["category"] = json_category


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/cost-estimator",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Catalog | EstimatorError | None:
    if response.status_code == 200:
        response_200 = Catalog.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = EstimatorError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = EstimatorError.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = EstimatorError.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = EstimatorError.from_dict(response.json())



        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Catalog | EstimatorError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    provider: GetApiCostEstimatorProvider | Unset = UNSET,
    category: GetApiCostEstimatorCategory | Unset = UNSET,

) -> Response[Catalog | EstimatorError]:
    """ The priced service catalog

     216 configurations (catalog version 2026.11.22, list prices of 2026-11-22: aws us-east-1, gcp us-
    central1, azure eastus). Filters combine; an unknown value is a 400 listing the `allowed` values.

    Args:
        provider (GetApiCostEstimatorProvider | Unset): Only this provider. Example: aws.
        category (GetApiCostEstimatorCategory | Unset): Only this category (combinable with
            provider). Example: compute.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Catalog | EstimatorError]
     """


    kwargs = _get_kwargs(
        provider=provider,
category=category,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    provider: GetApiCostEstimatorProvider | Unset = UNSET,
    category: GetApiCostEstimatorCategory | Unset = UNSET,

) -> Catalog | EstimatorError | None:
    """ The priced service catalog

     216 configurations (catalog version 2026.11.22, list prices of 2026-11-22: aws us-east-1, gcp us-
    central1, azure eastus). Filters combine; an unknown value is a 400 listing the `allowed` values.

    Args:
        provider (GetApiCostEstimatorProvider | Unset): Only this provider. Example: aws.
        category (GetApiCostEstimatorCategory | Unset): Only this category (combinable with
            provider). Example: compute.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Catalog | EstimatorError
     """


    return sync_detailed(
        client=client,
provider=provider,
category=category,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    provider: GetApiCostEstimatorProvider | Unset = UNSET,
    category: GetApiCostEstimatorCategory | Unset = UNSET,

) -> Response[Catalog | EstimatorError]:
    """ The priced service catalog

     216 configurations (catalog version 2026.11.22, list prices of 2026-11-22: aws us-east-1, gcp us-
    central1, azure eastus). Filters combine; an unknown value is a 400 listing the `allowed` values.

    Args:
        provider (GetApiCostEstimatorProvider | Unset): Only this provider. Example: aws.
        category (GetApiCostEstimatorCategory | Unset): Only this category (combinable with
            provider). Example: compute.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Catalog | EstimatorError]
     """


    kwargs = _get_kwargs(
        provider=provider,
category=category,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    provider: GetApiCostEstimatorProvider | Unset = UNSET,
    category: GetApiCostEstimatorCategory | Unset = UNSET,

) -> Catalog | EstimatorError | None:
    """ The priced service catalog

     216 configurations (catalog version 2026.11.22, list prices of 2026-11-22: aws us-east-1, gcp us-
    central1, azure eastus). Filters combine; an unknown value is a 400 listing the `allowed` values.

    Args:
        provider (GetApiCostEstimatorProvider | Unset): Only this provider. Example: aws.
        category (GetApiCostEstimatorCategory | Unset): Only this category (combinable with
            provider). Example: compute.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Catalog | EstimatorError
     """


    return (await asyncio_detailed(
        client=client,
provider=provider,
category=category,

    )).parsed
