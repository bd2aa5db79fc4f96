from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.task_list import TaskList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    name: str | Unset = UNSET,
    state: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["name"] = name

    params["state"] = state

    params["limit"] = limit

    params["skip"] = skip

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/task",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TaskList | None:
    if response.status_code == 200:
        response_200 = TaskList.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | TaskList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    name: str | Unset = UNSET,
    state: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Response[Error | TaskList]:
    """List tasks

     Returns task executions newest first, one page at a time (`limit` default 20), optionally filtered
    by name and state, both matched case-insensitively. No match is `{"tasks": []}`; an unknown state is
    400. A task is one run of a task schedule (`purge` every 600 s, `stats collection` every
    `STATISTICS.interval` seconds, `purge system` daily at 00:00 UTC, and any other INTERVAL, TIMED or
    MANUAL schedule); tasks run inside the gateway's process, whose id is their `pid`. Finished tasks
    are kept `SCHEDULER.max_completed_task_age_days` days (the `purge system` task removes older ones).

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskList]
    """

    kwargs = _get_kwargs(
        name=name,
        state=state,
        limit=limit,
        skip=skip,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    name: str | Unset = UNSET,
    state: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Error | TaskList | None:
    """List tasks

     Returns task executions newest first, one page at a time (`limit` default 20), optionally filtered
    by name and state, both matched case-insensitively. No match is `{"tasks": []}`; an unknown state is
    400. A task is one run of a task schedule (`purge` every 600 s, `stats collection` every
    `STATISTICS.interval` seconds, `purge system` daily at 00:00 UTC, and any other INTERVAL, TIMED or
    MANUAL schedule); tasks run inside the gateway's process, whose id is their `pid`. Finished tasks
    are kept `SCHEDULER.max_completed_task_age_days` days (the `purge system` task removes older ones).

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskList
    """

    return sync_detailed(
        client=client,
        name=name,
        state=state,
        limit=limit,
        skip=skip,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    name: str | Unset = UNSET,
    state: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Response[Error | TaskList]:
    """List tasks

     Returns task executions newest first, one page at a time (`limit` default 20), optionally filtered
    by name and state, both matched case-insensitively. No match is `{"tasks": []}`; an unknown state is
    400. A task is one run of a task schedule (`purge` every 600 s, `stats collection` every
    `STATISTICS.interval` seconds, `purge system` daily at 00:00 UTC, and any other INTERVAL, TIMED or
    MANUAL schedule); tasks run inside the gateway's process, whose id is their `pid`. Finished tasks
    are kept `SCHEDULER.max_completed_task_age_days` days (the `purge system` task removes older ones).

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskList]
    """

    kwargs = _get_kwargs(
        name=name,
        state=state,
        limit=limit,
        skip=skip,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    name: str | Unset = UNSET,
    state: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Error | TaskList | None:
    """List tasks

     Returns task executions newest first, one page at a time (`limit` default 20), optionally filtered
    by name and state, both matched case-insensitively. No match is `{"tasks": []}`; an unknown state is
    400. A task is one run of a task schedule (`purge` every 600 s, `stats collection` every
    `STATISTICS.interval` seconds, `purge system` daily at 00:00 UTC, and any other INTERVAL, TIMED or
    MANUAL schedule); tasks run inside the gateway's process, whose id is their `pid`. Finished tasks
    are kept `SCHEDULER.max_completed_task_age_days` days (the `purge system` task removes older ones).

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskList
    """

    return (
        await asyncio_detailed(
            client=client,
            name=name,
            state=state,
            limit=limit,
            skip=skip,
        )
    ).parsed
