from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.task_list import TaskList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    name: str | None = None,
    state: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if name is not None:
        params["name"] = name

    if state is not None:
        params["state"] = state

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
        params["skip"] = skip

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/task/latest",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> TaskList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = TaskList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[TaskList]:
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
    name: str | None = None,
    state: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[TaskList]:
    """List the latest execution of each task

     Returns the most recent execution per task name, newest first, with the same filters and paging as
    the task list. The filters apply first: with `state=complete` it is each name's most recent complete
    execution.

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TaskList]
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
    client: Client,
    name: str | None = None,
    state: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> TaskList:
    """List the latest execution of each task

     Returns the most recent execution per task name, newest first, with the same filters and paging as
    the task list. The filters apply first: with `state=complete` it is each name's most recent complete
    execution.

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TaskList
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
    client: Client,
    name: str | None = None,
    state: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[TaskList]:
    """List the latest execution of each task

     Returns the most recent execution per task name, newest first, with the same filters and paging as
    the task list. The filters apply first: with `state=complete` it is each name's most recent complete
    execution.

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TaskList]
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
    client: Client,
    name: str | None = None,
    state: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> TaskList:
    """List the latest execution of each task

     Returns the most recent execution per task name, newest first, with the same filters and paging as
    the task list. The filters apply first: with `state=complete` it is each name's most recent complete
    execution.

    Args:
        name (str | Unset):  Example: purge.
        state (str | Unset):  Example: complete.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TaskList
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
