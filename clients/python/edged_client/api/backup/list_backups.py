from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.backup_list import BackupList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    status: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if status is not None:
        params["status"] = status

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
        params["skip"] = skip

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/backup",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> BackupList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = BackupList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[BackupList]:
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
    status: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[BackupList]:
    """List backups

     Returns the backups in `<data dir>/backup`, newest first, one page at a time (`limit` default 20),
    optionally only those of one `status` (case-insensitive; an unknown status is 400). A backup that
    was running when the gateway stopped is `INTERRUPTED`. Admin only: a backup holds the users'
    password hashes.

    Args:
        status (str | Unset):  Example: COMPLETED.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupList]
    """

    kwargs = _get_kwargs(
        status=status,
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
    status: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> BackupList:
    """List backups

     Returns the backups in `<data dir>/backup`, newest first, one page at a time (`limit` default 20),
    optionally only those of one `status` (case-insensitive; an unknown status is 400). A backup that
    was running when the gateway stopped is `INTERRUPTED`. Admin only: a backup holds the users'
    password hashes.

    Args:
        status (str | Unset):  Example: COMPLETED.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupList
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        skip=skip,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    status: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[BackupList]:
    """List backups

     Returns the backups in `<data dir>/backup`, newest first, one page at a time (`limit` default 20),
    optionally only those of one `status` (case-insensitive; an unknown status is 400). A backup that
    was running when the gateway stopped is `INTERRUPTED`. Admin only: a backup holds the users'
    password hashes.

    Args:
        status (str | Unset):  Example: COMPLETED.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupList]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        skip=skip,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    status: str | None = None,
    limit: int | None = None,
    skip: int | None = None,
) -> BackupList:
    """List backups

     Returns the backups in `<data dir>/backup`, newest first, one page at a time (`limit` default 20),
    optionally only those of one `status` (case-insensitive; an unknown status is 400). A backup that
    was running when the gateway stopped is `INTERRUPTED`. Admin only: a backup holds the users'
    password hashes.

    Args:
        status (str | Unset):  Example: COMPLETED.
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupList
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            skip=skip,
        )
    ).parsed
