from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.schedule_selector import ScheduleSelector
from ...models.schedule_status import ScheduleStatus
from ...types import Response


def _get_kwargs(
    *,
    body: ScheduleSelector,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/schedule/enable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    *,
    client: Client,
    body: ScheduleSelector,
) -> Response[ScheduleStatus]:
    """Enable a schedule by name or id

     Enables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule starts the service. Writes a SCHCH audit entry. Enabling an enabled schedule
    succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ScheduleStatus]
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
    body: ScheduleSelector,
) -> ScheduleStatus:
    """Enable a schedule by name or id

     Enables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule starts the service. Writes a SCHCH audit entry. Enabling an enabled schedule
    succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ScheduleStatus
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: ScheduleSelector,
) -> Response[ScheduleStatus]:
    """Enable a schedule by name or id

     Enables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule starts the service. Writes a SCHCH audit entry. Enabling an enabled schedule
    succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ScheduleStatus]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: ScheduleSelector,
) -> ScheduleStatus:
    """Enable a schedule by name or id

     Enables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule starts the service. Writes a SCHCH audit entry. Enabling an enabled schedule
    succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ScheduleStatus
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
