from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.backup_done import BackupDone
from ...types import Response


def _get_kwargs(
    backup_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/backup/{backup_id}".format(
            backup_id=quote(str(backup_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> BackupDone:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = BackupDone.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[BackupDone]:
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
    backup_id: int,
    *,
    client: Client,
) -> Response[BackupDone]:
    """Delete a backup

     Deletes the backup's file and record. Unknown id is 404; a backup still running is 409.

    Args:
        backup_id (int):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupDone]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    backup_id: int,
    *,
    client: Client,
) -> BackupDone:
    """Delete a backup

     Deletes the backup's file and record. Unknown id is 404; a backup still running is 409.

    Args:
        backup_id (int):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupDone
    """

    return sync_detailed(
        backup_id=backup_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    backup_id: int,
    *,
    client: Client,
) -> Response[BackupDone]:
    """Delete a backup

     Deletes the backup's file and record. Unknown id is 404; a backup still running is 409.

    Args:
        backup_id (int):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupDone]
    """

    kwargs = _get_kwargs(
        backup_id=backup_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    backup_id: int,
    *,
    client: Client,
) -> BackupDone:
    """Delete a backup

     Deletes the backup's file and record. Unknown id is 404; a backup still running is 409.

    Args:
        backup_id (int):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupDone
    """

    return (
        await asyncio_detailed(
            backup_id=backup_id,
            client=client,
        )
    ).parsed
