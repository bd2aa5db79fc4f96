from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import Client
from ...models.schedule_status import ScheduleStatus
from ...types import Response


def _get_kwargs(
    schedule_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/schedule/{schedule_id}/disable".format(
            schedule_id=quote(str(schedule_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> ScheduleStatus:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ScheduleStatus.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ScheduleStatus]:
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
    schedule_id: UUID,
    *,
    client: Client,
) -> Response[ScheduleStatus]:
    """Disable a schedule

     Disables the schedule and persists the flag; a service's schedule stops the service until it is
    enabled again, restarts included. Writes a SCHCH audit entry. Unknown id: 404.

    Args:
        schedule_id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ScheduleStatus]
    """

    kwargs = _get_kwargs(
        schedule_id=schedule_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    schedule_id: UUID,
    *,
    client: Client,
) -> ScheduleStatus:
    """Disable a schedule

     Disables the schedule and persists the flag; a service's schedule stops the service until it is
    enabled again, restarts included. Writes a SCHCH audit entry. Unknown id: 404.

    Args:
        schedule_id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ScheduleStatus
    """

    return sync_detailed(
        schedule_id=schedule_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    schedule_id: UUID,
    *,
    client: Client,
) -> Response[ScheduleStatus]:
    """Disable a schedule

     Disables the schedule and persists the flag; a service's schedule stops the service until it is
    enabled again, restarts included. Writes a SCHCH audit entry. Unknown id: 404.

    Args:
        schedule_id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ScheduleStatus]
    """

    kwargs = _get_kwargs(
        schedule_id=schedule_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    schedule_id: UUID,
    *,
    client: Client,
) -> ScheduleStatus:
    """Disable a schedule

     Disables the schedule and persists the flag; a service's schedule stops the service until it is
    enabled again, restarts included. Writes a SCHCH audit entry. Unknown id: 404.

    Args:
        schedule_id (UUID):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ScheduleStatus
    """

    return (
        await asyncio_detailed(
            schedule_id=schedule_id,
            client=client,
        )
    ).parsed
