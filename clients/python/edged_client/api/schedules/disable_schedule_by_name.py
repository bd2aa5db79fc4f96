from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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
        "url": "/edge/schedule/disable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ScheduleStatus | None:
    if response.status_code == 200:
        response_200 = ScheduleStatus.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | ScheduleStatus]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleSelector,
) -> Response[Error | ScheduleStatus]:
    """Disable a schedule by name or id

     Disables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule stops the service, which stays stopped across restarts until enabled. Writes a
    SCHCH audit entry. Disabling a disabled schedule succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScheduleStatus]
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
    client: AuthenticatedClient | Client,
    body: ScheduleSelector,
) -> Error | ScheduleStatus | None:
    """Disable a schedule by name or id

     Disables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule stops the service, which stays stopped across restarts until enabled. Writes a
    SCHCH audit entry. Disabling a disabled schedule succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScheduleStatus
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleSelector,
) -> Response[Error | ScheduleStatus]:
    """Disable a schedule by name or id

     Disables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule stops the service, which stays stopped across restarts until enabled. Writes a
    SCHCH audit entry. Disabling a disabled schedule succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScheduleStatus]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ScheduleSelector,
) -> Error | ScheduleStatus | None:
    """Disable a schedule by name or id

     Disables the schedule named by `schedule_name` or `schedule_id` (exactly one) and persists the flag;
    a service's schedule stops the service, which stays stopped across restarts until enabled. Writes a
    SCHCH audit entry. Disabling a disabled schedule succeeds. Unknown schedule: 404.

    Args:
        body (ScheduleSelector): Names a schedule by name or by id; exactly one of the two.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScheduleStatus
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
