from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.statistics_rates import StatisticsRates
from ...types import UNSET, Response


def _get_kwargs(
    *,
    statistics: str,
    periods: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["statistics"] = statistics

    params["periods"] = periods

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/statistics/rate",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StatisticsRates | None:
    if response.status_code == 200:
        response_200 = StatisticsRates.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StatisticsRates]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    statistics: str,
    periods: str,
) -> Response[Error | StatisticsRates]:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StatisticsRates]
    """

    kwargs = _get_kwargs(
        statistics=statistics,
        periods=periods,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    statistics: str,
    periods: str,
) -> Error | StatisticsRates | None:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StatisticsRates
    """

    return sync_detailed(
        client=client,
        statistics=statistics,
        periods=periods,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    statistics: str,
    periods: str,
) -> Response[Error | StatisticsRates]:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StatisticsRates]
    """

    kwargs = _get_kwargs(
        statistics=statistics,
        periods=periods,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    statistics: str,
    periods: str,
) -> Error | StatisticsRates | None:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StatisticsRates
    """

    return (
        await asyncio_detailed(
            client=client,
            statistics=statistics,
            periods=periods,
        )
    ).parsed
