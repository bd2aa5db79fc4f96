from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
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


def _parse_response(*, client: Client, response: httpx.Response) -> StatisticsRates:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = StatisticsRates.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[StatisticsRates]:
    # Parsed first: an answer outside 2xx raises its ApiError, whatever its
    # status (HTTPStatus knows only the registered ones).
    parsed = _parse_response(client=client, response=response)
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=parsed,
    )


def sync_detailed(
    *,
    client: Client,
    statistics: str,
    periods: str,
) -> Response[StatisticsRates]:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[StatisticsRates]
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
    client: Client,
    statistics: str,
    periods: str,
) -> StatisticsRates:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        StatisticsRates
    """

    return sync_detailed(
        client=client,
        statistics=statistics,
        periods=periods,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    statistics: str,
    periods: str,
) -> Response[StatisticsRates]:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[StatisticsRates]
    """

    kwargs = _get_kwargs(
        statistics=statistics,
        periods=periods,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    statistics: str,
    periods: str,
) -> StatisticsRates:
    """Get statistics rates

     For each named statistic and each period (minutes) returns the rate in counts per minute: the sum of
    the history deltas stamped within the last `period` minutes divided by `period` (0 without history).
    Both parameters are required (400); spaces around names are ignored and a name or period given twice
    counts once; an empty list is 400; an unknown statistic is 404.

    Args:
        statistics (str):  Example: READINGS,sinusoid-Ingest.
        periods (str):  Example: 1,5,15.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        StatisticsRates
    """

    return (
        await asyncio_detailed(
            client=client,
            statistics=statistics,
            periods=periods,
        )
    ).parsed
