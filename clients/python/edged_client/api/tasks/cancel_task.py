from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import Client
from ...models.task_cancelled import TaskCancelled
from ...types import Response


def _get_kwargs(
    id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/task/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> TaskCancelled:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = TaskCancelled.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[TaskCancelled]:
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
    id: UUID,
    *,
    client: Client,
) -> Response[TaskCancelled]:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TaskCancelled]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: Client,
) -> TaskCancelled:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TaskCancelled
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: Client,
) -> Response[TaskCancelled]:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TaskCancelled]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: Client,
) -> TaskCancelled:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TaskCancelled
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
