from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.backup_started import BackupStarted
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/backup",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> BackupStarted:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = BackupStarted.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[BackupStarted]:
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
) -> Response[BackupStarted]:
    """Create a backup

     Starts a backup in the background, as a task of the schedule `backup` (process `backup`), and
    answers its id with status `RUNNING`; list or get it to see it end. A backup is a gzip-compressed
    tar file: a manifest (file format, schema version, store kind, date, contents), the gateway's own
    export of its tables (configuration, users and roles, schedules, services, filters and pipelines,
    plugin data, asset tracking, the package repository and installed packages' records) as JSON lines,
    read in one consistent snapshot while readings go on arriving, the certificate store's files, and,
    when `BACKUP.includeReadings` is true, the buffered readings with the north services' positions in
    them. The same mechanism serves SQLite and PostgreSQL; no database program is needed. It ends
    audited `BKEXC` (SUCCESS with its size, or FAILURE with the reason); afterwards only the newest
    `BACKUP.retainCount` complete backups are kept. A backup already running is 409. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupStarted]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> BackupStarted:
    """Create a backup

     Starts a backup in the background, as a task of the schedule `backup` (process `backup`), and
    answers its id with status `RUNNING`; list or get it to see it end. A backup is a gzip-compressed
    tar file: a manifest (file format, schema version, store kind, date, contents), the gateway's own
    export of its tables (configuration, users and roles, schedules, services, filters and pipelines,
    plugin data, asset tracking, the package repository and installed packages' records) as JSON lines,
    read in one consistent snapshot while readings go on arriving, the certificate store's files, and,
    when `BACKUP.includeReadings` is true, the buffered readings with the north services' positions in
    them. The same mechanism serves SQLite and PostgreSQL; no database program is needed. It ends
    audited `BKEXC` (SUCCESS with its size, or FAILURE with the reason); afterwards only the newest
    `BACKUP.retainCount` complete backups are kept. A backup already running is 409. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupStarted
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[BackupStarted]:
    """Create a backup

     Starts a backup in the background, as a task of the schedule `backup` (process `backup`), and
    answers its id with status `RUNNING`; list or get it to see it end. A backup is a gzip-compressed
    tar file: a manifest (file format, schema version, store kind, date, contents), the gateway's own
    export of its tables (configuration, users and roles, schedules, services, filters and pipelines,
    plugin data, asset tracking, the package repository and installed packages' records) as JSON lines,
    read in one consistent snapshot while readings go on arriving, the certificate store's files, and,
    when `BACKUP.includeReadings` is true, the buffered readings with the north services' positions in
    them. The same mechanism serves SQLite and PostgreSQL; no database program is needed. It ends
    audited `BKEXC` (SUCCESS with its size, or FAILURE with the reason); afterwards only the newest
    `BACKUP.retainCount` complete backups are kept. A backup already running is 409. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[BackupStarted]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> BackupStarted:
    """Create a backup

     Starts a backup in the background, as a task of the schedule `backup` (process `backup`), and
    answers its id with status `RUNNING`; list or get it to see it end. A backup is a gzip-compressed
    tar file: a manifest (file format, schema version, store kind, date, contents), the gateway's own
    export of its tables (configuration, users and roles, schedules, services, filters and pipelines,
    plugin data, asset tracking, the package repository and installed packages' records) as JSON lines,
    read in one consistent snapshot while readings go on arriving, the certificate store's files, and,
    when `BACKUP.includeReadings` is true, the buffered readings with the north services' positions in
    them. The same mechanism serves SQLite and PostgreSQL; no database program is needed. It ends
    audited `BKEXC` (SUCCESS with its size, or FAILURE with the reason); afterwards only the newest
    `BACKUP.retainCount` complete backups are kept. A backup already running is 409. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        BackupStarted
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
