from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.backup import Backup
from ...types import File, Response


def _get_kwargs(
    *,
    body: File,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/backup/upload",
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Backup:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Backup.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Backup]:
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
    body: File,
) -> Response[Backup]:
    """Upload a backup

     Adds a backup file downloaded from this or another gateway (the body, `application/octet-stream`, at
    most 1 GiB and sent within the request time limit) as a new `COMPLETED` backup with its own id,
    dated when it was made; restore it with `PUT /edge/backup/{backup_id}/restore`, which checks its
    schema version and store kind. A body that is not a backup file of this gateway's format is 400;
    over the limit 413. Admin only.

    Args:
        body (File):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Backup]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    body: File,
) -> Backup:
    """Upload a backup

     Adds a backup file downloaded from this or another gateway (the body, `application/octet-stream`, at
    most 1 GiB and sent within the request time limit) as a new `COMPLETED` backup with its own id,
    dated when it was made; restore it with `PUT /edge/backup/{backup_id}/restore`, which checks its
    schema version and store kind. A body that is not a backup file of this gateway's format is 400;
    over the limit 413. Admin only.

    Args:
        body (File):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Backup
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: File,
) -> Response[Backup]:
    """Upload a backup

     Adds a backup file downloaded from this or another gateway (the body, `application/octet-stream`, at
    most 1 GiB and sent within the request time limit) as a new `COMPLETED` backup with its own id,
    dated when it was made; restore it with `PUT /edge/backup/{backup_id}/restore`, which checks its
    schema version and store kind. A body that is not a backup file of this gateway's format is 400;
    over the limit 413. Admin only.

    Args:
        body (File):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Backup]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: File,
) -> Backup:
    """Upload a backup

     Adds a backup file downloaded from this or another gateway (the body, `application/octet-stream`, at
    most 1 GiB and sent within the request time limit) as a new `COMPLETED` backup with its own id,
    dated when it was made; restore it with `PUT /edge/backup/{backup_id}/restore`, which checks its
    schema version and store kind. A body that is not a backup file of this gateway's format is 400;
    over the limit 413. Admin only.

    Args:
        body (File):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Backup
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
