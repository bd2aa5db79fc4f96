from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.message import Message
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/restart",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Message | None:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Message]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
    """Restart the gateway

     Answers first, then performs the same clean shutdown (FSTOP) and re-initialises the whole gateway in
    the same process: storage and the listeners are opened again, START is written, uptime restarts from
    zero, services start as their schedules' enabled flags say and the scheduler starts (not in safe
    mode). The API is unreachable for the moment between. A second shutdown or restart request while one
    is in progress answers 200 with the message of the one in progress.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
    """Restart the gateway

     Answers first, then performs the same clean shutdown (FSTOP) and re-initialises the whole gateway in
    the same process: storage and the listeners are opened again, START is written, uptime restarts from
    zero, services start as their schedules' enabled flags say and the scheduler starts (not in safe
    mode). The API is unreachable for the moment between. A second shutdown or restart request while one
    is in progress answers 200 with the message of the one in progress.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
    """Restart the gateway

     Answers first, then performs the same clean shutdown (FSTOP) and re-initialises the whole gateway in
    the same process: storage and the listeners are opened again, START is written, uptime restarts from
    zero, services start as their schedules' enabled flags say and the scheduler starts (not in safe
    mode). The API is unreachable for the moment between. A second shutdown or restart request while one
    is in progress answers 200 with the message of the one in progress.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
    """Restart the gateway

     Answers first, then performs the same clean shutdown (FSTOP) and re-initialises the whole gateway in
    the same process: storage and the listeners are opened again, START is written, uptime restarts from
    zero, services start as their schedules' enabled flags say and the scheduler starts (not in safe
    mode). The API is unreachable for the moment between. A second shutdown or restart request while one
    is in progress answers 200 with the message of the one in progress.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
