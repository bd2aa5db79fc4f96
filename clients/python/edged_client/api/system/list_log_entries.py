from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.log_level import LogLevel
from ...models.log_list import LogList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | None = None,
    skip: int | None = None,
    source: str | None = None,
    level: LogLevel | None = None,
    since: str | None = None,
    until: str | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
        params["skip"] = skip

    if source is not None:
        params["source"] = source

    if level is not None:
        json_level: str | Unset = UNSET
        if not isinstance(level, Unset):
            json_level = level.value

        params["level"] = json_level

    if since is not None:
        params["since"] = since

    if until is not None:
        params["until"] = until

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/syslog",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> LogList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = LogList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[LogList]:
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
    skip: int | None = None,
    source: str | None = None,
    level: LogLevel | None = None,
    since: str | None = None,
    until: str | None = None,
) -> Response[LogList]:
    """The gateway's log

     Returns the lines the gateway and its services logged, newest first, one page at a time (`limit`
    default 20, `skip`), with `count`, the number of lines matching the filters across all pages. The
    recent lines come from memory (the last 5000 lines, at most 4 MiB); older ones, those of earlier
    runs included, from the log file `logs/edged.log` in the data directory and its rotated files, which
    the gateway writes while `LOGGING.logFileSize` is above 0 (rotated at that many MiB,
    `LOGGING.logFileCount` rotated files kept). The gateway logs the lines at `LOGGING.logLevel` and
    above, so lower levels are not found. A line about a service (its plugin's lines, those of an
    external plugin's process included) has the service's name as `source`; the gateway's own lines have
    `core`. Filters combine: `source`, `level` (that level and above), `since` (at or after) and `until`
    (before). A `level` outside the list, a `limit` or `skip` out of range, a time not of the accepted
    forms or `since` after `until` is `400`. Admin and control roles only, never anonymously, since log
    lines name addresses, users and devices: the other roles get `403`, a caller without a token gets
    `401` in either authentication mode.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (str | Unset):  Example: sine.
        level (LogLevel | Unset): A log line's level, lowest first. Example: warning.
        since (str | Unset):  Example: 2024-05-01 10:00:00.000.
        until (str | Unset):  Example: 2024-05-01 11:00:00.000.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[LogList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        skip=skip,
        source=source,
        level=level,
        since=since,
        until=until,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: str | None = None,
    level: LogLevel | None = None,
    since: str | None = None,
    until: str | None = None,
) -> LogList:
    """The gateway's log

     Returns the lines the gateway and its services logged, newest first, one page at a time (`limit`
    default 20, `skip`), with `count`, the number of lines matching the filters across all pages. The
    recent lines come from memory (the last 5000 lines, at most 4 MiB); older ones, those of earlier
    runs included, from the log file `logs/edged.log` in the data directory and its rotated files, which
    the gateway writes while `LOGGING.logFileSize` is above 0 (rotated at that many MiB,
    `LOGGING.logFileCount` rotated files kept). The gateway logs the lines at `LOGGING.logLevel` and
    above, so lower levels are not found. A line about a service (its plugin's lines, those of an
    external plugin's process included) has the service's name as `source`; the gateway's own lines have
    `core`. Filters combine: `source`, `level` (that level and above), `since` (at or after) and `until`
    (before). A `level` outside the list, a `limit` or `skip` out of range, a time not of the accepted
    forms or `since` after `until` is `400`. Admin and control roles only, never anonymously, since log
    lines name addresses, users and devices: the other roles get `403`, a caller without a token gets
    `401` in either authentication mode.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (str | Unset):  Example: sine.
        level (LogLevel | Unset): A log line's level, lowest first. Example: warning.
        since (str | Unset):  Example: 2024-05-01 10:00:00.000.
        until (str | Unset):  Example: 2024-05-01 11:00:00.000.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        LogList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        skip=skip,
        source=source,
        level=level,
        since=since,
        until=until,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: str | None = None,
    level: LogLevel | None = None,
    since: str | None = None,
    until: str | None = None,
) -> Response[LogList]:
    """The gateway's log

     Returns the lines the gateway and its services logged, newest first, one page at a time (`limit`
    default 20, `skip`), with `count`, the number of lines matching the filters across all pages. The
    recent lines come from memory (the last 5000 lines, at most 4 MiB); older ones, those of earlier
    runs included, from the log file `logs/edged.log` in the data directory and its rotated files, which
    the gateway writes while `LOGGING.logFileSize` is above 0 (rotated at that many MiB,
    `LOGGING.logFileCount` rotated files kept). The gateway logs the lines at `LOGGING.logLevel` and
    above, so lower levels are not found. A line about a service (its plugin's lines, those of an
    external plugin's process included) has the service's name as `source`; the gateway's own lines have
    `core`. Filters combine: `source`, `level` (that level and above), `since` (at or after) and `until`
    (before). A `level` outside the list, a `limit` or `skip` out of range, a time not of the accepted
    forms or `since` after `until` is `400`. Admin and control roles only, never anonymously, since log
    lines name addresses, users and devices: the other roles get `403`, a caller without a token gets
    `401` in either authentication mode.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (str | Unset):  Example: sine.
        level (LogLevel | Unset): A log line's level, lowest first. Example: warning.
        since (str | Unset):  Example: 2024-05-01 10:00:00.000.
        until (str | Unset):  Example: 2024-05-01 11:00:00.000.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[LogList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        skip=skip,
        source=source,
        level=level,
        since=since,
        until=until,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: str | None = None,
    level: LogLevel | None = None,
    since: str | None = None,
    until: str | None = None,
) -> LogList:
    """The gateway's log

     Returns the lines the gateway and its services logged, newest first, one page at a time (`limit`
    default 20, `skip`), with `count`, the number of lines matching the filters across all pages. The
    recent lines come from memory (the last 5000 lines, at most 4 MiB); older ones, those of earlier
    runs included, from the log file `logs/edged.log` in the data directory and its rotated files, which
    the gateway writes while `LOGGING.logFileSize` is above 0 (rotated at that many MiB,
    `LOGGING.logFileCount` rotated files kept). The gateway logs the lines at `LOGGING.logLevel` and
    above, so lower levels are not found. A line about a service (its plugin's lines, those of an
    external plugin's process included) has the service's name as `source`; the gateway's own lines have
    `core`. Filters combine: `source`, `level` (that level and above), `since` (at or after) and `until`
    (before). A `level` outside the list, a `limit` or `skip` out of range, a time not of the accepted
    forms or `since` after `until` is `400`. Admin and control roles only, never anonymously, since log
    lines name addresses, users and devices: the other roles get `403`, a caller without a token gets
    `401` in either authentication mode.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (str | Unset):  Example: sine.
        level (LogLevel | Unset): A log line's level, lowest first. Example: warning.
        since (str | Unset):  Example: 2024-05-01 10:00:00.000.
        until (str | Unset):  Example: 2024-05-01 11:00:00.000.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        LogList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            skip=skip,
            source=source,
            level=level,
            since=since,
            until=until,
        )
    ).parsed
