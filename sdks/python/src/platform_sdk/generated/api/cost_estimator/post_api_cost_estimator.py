from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.estimate import Estimate
from ...models.estimator_error import EstimatorError
from ...models.post_api_cost_estimator_body import PostApiCostEstimatorBody
from typing import cast



def _get_kwargs(
    *,
    body: PostApiCostEstimatorBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/cost-estimator",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Estimate | EstimatorError | None:
    if response.status_code == 200:
        response_200 = Estimate.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = EstimatorError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = EstimatorError.from_dict(response.json())



        return response_401

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = EstimatorError.from_dict(response.json())



        return response_422

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Estimate | EstimatorError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostApiCostEstimatorBody,

) -> Response[Error | Estimate | EstimatorError]:
    """ Estimate monthly and annual cost

     Prices each item against the catalog: per hour/vCPU-hour/GB-hour × quantity × hoursPerMonth (default
    730); per GB/month and per GB × quantity × gbPerMonth (required); monthly units × quantity; per
    million/100K/10K/1K and per GB-second × quantity (quantity counts the priced blocks). Exact
    decimals; each line rounded half-up to cents; the total is the unrounded sum rounded once; annual =
    12 × monthly. An unknown provider or a bad field is a 400; an item the catalog cannot price is a 422
    naming its `index`; so is an item (or a total) costing more than $10,000,000,000,000 a year
    (`estimate_out_of_range`: beyond it, amounts would not be exact cents in JSON).

    Args:
        body (PostApiCostEstimatorBody): 1 to 100 items. Unknown fields are rejected (400) so a
            misspelt usage field never prices silently at its default. Example: {'items':
            [{'provider': 'aws', 'service': 'Amazon EC2', 'instance': 'm5.large', 'quantity': 2,
            'hoursPerMonth': 730}, {'provider': 'aws', 'service': 'Amazon S3', 'instance': 'Standard',
            'quantity': 1, 'gbPerMonth': 500}, {'provider': 'aws', 'service': 'AWS Lambda',
            'instance': 'Requests', 'quantity': 3}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Estimate | EstimatorError]
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
    body: PostApiCostEstimatorBody,

) -> Error | Estimate | EstimatorError | None:
    """ Estimate monthly and annual cost

     Prices each item against the catalog: per hour/vCPU-hour/GB-hour × quantity × hoursPerMonth (default
    730); per GB/month and per GB × quantity × gbPerMonth (required); monthly units × quantity; per
    million/100K/10K/1K and per GB-second × quantity (quantity counts the priced blocks). Exact
    decimals; each line rounded half-up to cents; the total is the unrounded sum rounded once; annual =
    12 × monthly. An unknown provider or a bad field is a 400; an item the catalog cannot price is a 422
    naming its `index`; so is an item (or a total) costing more than $10,000,000,000,000 a year
    (`estimate_out_of_range`: beyond it, amounts would not be exact cents in JSON).

    Args:
        body (PostApiCostEstimatorBody): 1 to 100 items. Unknown fields are rejected (400) so a
            misspelt usage field never prices silently at its default. Example: {'items':
            [{'provider': 'aws', 'service': 'Amazon EC2', 'instance': 'm5.large', 'quantity': 2,
            'hoursPerMonth': 730}, {'provider': 'aws', 'service': 'Amazon S3', 'instance': 'Standard',
            'quantity': 1, 'gbPerMonth': 500}, {'provider': 'aws', 'service': 'AWS Lambda',
            'instance': 'Requests', 'quantity': 3}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Estimate | EstimatorError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostApiCostEstimatorBody,

) -> Response[Error | Estimate | EstimatorError]:
    """ Estimate monthly and annual cost

     Prices each item against the catalog: per hour/vCPU-hour/GB-hour × quantity × hoursPerMonth (default
    730); per GB/month and per GB × quantity × gbPerMonth (required); monthly units × quantity; per
    million/100K/10K/1K and per GB-second × quantity (quantity counts the priced blocks). Exact
    decimals; each line rounded half-up to cents; the total is the unrounded sum rounded once; annual =
    12 × monthly. An unknown provider or a bad field is a 400; an item the catalog cannot price is a 422
    naming its `index`; so is an item (or a total) costing more than $10,000,000,000,000 a year
    (`estimate_out_of_range`: beyond it, amounts would not be exact cents in JSON).

    Args:
        body (PostApiCostEstimatorBody): 1 to 100 items. Unknown fields are rejected (400) so a
            misspelt usage field never prices silently at its default. Example: {'items':
            [{'provider': 'aws', 'service': 'Amazon EC2', 'instance': 'm5.large', 'quantity': 2,
            'hoursPerMonth': 730}, {'provider': 'aws', 'service': 'Amazon S3', 'instance': 'Standard',
            'quantity': 1, 'gbPerMonth': 500}, {'provider': 'aws', 'service': 'AWS Lambda',
            'instance': 'Requests', 'quantity': 3}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Estimate | EstimatorError]
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
    body: PostApiCostEstimatorBody,

) -> Error | Estimate | EstimatorError | None:
    """ Estimate monthly and annual cost

     Prices each item against the catalog: per hour/vCPU-hour/GB-hour × quantity × hoursPerMonth (default
    730); per GB/month and per GB × quantity × gbPerMonth (required); monthly units × quantity; per
    million/100K/10K/1K and per GB-second × quantity (quantity counts the priced blocks). Exact
    decimals; each line rounded half-up to cents; the total is the unrounded sum rounded once; annual =
    12 × monthly. An unknown provider or a bad field is a 400; an item the catalog cannot price is a 422
    naming its `index`; so is an item (or a total) costing more than $10,000,000,000,000 a year
    (`estimate_out_of_range`: beyond it, amounts would not be exact cents in JSON).

    Args:
        body (PostApiCostEstimatorBody): 1 to 100 items. Unknown fields are rejected (400) so a
            misspelt usage field never prices silently at its default. Example: {'items':
            [{'provider': 'aws', 'service': 'Amazon EC2', 'instance': 'm5.large', 'quantity': 2,
            'hoursPerMonth': 730}, {'provider': 'aws', 'service': 'Amazon S3', 'instance': 'Standard',
            'quantity': 1, 'gbPerMonth': 500}, {'provider': 'aws', 'service': 'AWS Lambda',
            'instance': 'Requests', 'quantity': 3}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Estimate | EstimatorError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
