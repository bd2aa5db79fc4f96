from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.statistics_history import StatisticsHistory
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/statistics/history",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StatisticsHistory | None:
    if response.status_code == 200:
        response_200 = StatisticsHistory.from_dict(response.json())

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
) -> Response[Error | StatisticsHistory]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
) -> Response[Error | StatisticsHistory]:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StatisticsHistory]
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
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
) -> Error | StatisticsHistory | None:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StatisticsHistory
    """

    return sync_detailed(
        client=client,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
) -> Response[Error | StatisticsHistory]:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StatisticsHistory]
    """

    kwargs = _get_kwargs(
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
) -> Error | StatisticsHistory | None:
    """Get statistics history

     Returns the `limit` most recent history entries (default 20), newest first, each holding the deltas
    of every statistic over one collection interval. An empty history is `statistics: []`. The `stats
    collection` task writes one entry every `STATISTICS.interval` seconds (a change of that item applies
    at once); entries are kept `PURGE_READ.retainStatsHistory` days.

    Args:
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StatisticsHistory
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
        )
    ).parsed
