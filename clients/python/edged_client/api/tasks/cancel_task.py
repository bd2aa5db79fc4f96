from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TaskCancelled | None:
    if response.status_code == 200:
        response_200 = TaskCancelled.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Error | TaskCancelled]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | TaskCancelled]:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskCancelled]
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
    client: AuthenticatedClient | Client,
) -> Error | TaskCancelled | None:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskCancelled
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | TaskCancelled]:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskCancelled]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Error | TaskCancelled | None:
    """Cancel a running task

     Stops the task's process and sets its state to `Cancelled` (no `exitCode`, reason `cancelled through
    the API`), then answers. The process is asked to stop and given up to 10 seconds; one that takes
    longer is recorded cancelled anyway. An unknown id is 404; a task that is not running, or that ended
    by itself before the cancellation reached it, is 409.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskCancelled
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
