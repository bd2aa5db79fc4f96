from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.statistics_history import StatisticsHistory
from ...types import UNSET, Response


def _get_kwargs(
    *,
    limit: int | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if limit is not None:
        params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/statistics/history",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> StatisticsHistory:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = StatisticsHistory.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[StatisticsHistory]:
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
    limit: int | None = None,
) -> Response[StatisticsHistory]:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[StatisticsHistory]
    """

    kwargs = _get_kwargs(
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    limit: int | None = None,
) -> StatisticsHistory:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        StatisticsHistory
    """

    return sync_detailed(
        client=client,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    limit: int | None = None,
) -> Response[StatisticsHistory]:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[StatisticsHistory]
    """

    kwargs = _get_kwargs(
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    limit: int | None = None,
) -> StatisticsHistory:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        StatisticsHistory
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
        )
    ).parsed
