from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...types import Response


def _get_kwargs(
    notification_name: str,
    channel_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/notification/{notification_name}/delivery/{channel_name}".format(
            notification_name=quote(str(notification_name), safe=""),
            channel_name=quote(str(channel_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Message:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Message]:
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
    notification_name: str,
    channel_name: str,
    *,
    client: Client,
) -> Response[Message]:
    """Delete an extra delivery channel

     Deletes an extra channel and its category; NTFDL is audited with the instance's and the channel's
    names. The instance's own channel cannot be deleted (400: change it with PUT or delete the
    instance); 404 for an unknown instance or channel.

    Args:
        notification_name (str):
        channel_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        notification_name=notification_name,
        channel_name=channel_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    notification_name: str,
    channel_name: str,
    *,
    client: Client,
) -> Message:
    """Delete an extra delivery channel

     Deletes an extra channel and its category; NTFDL is audited with the instance's and the channel's
    names. The instance's own channel cannot be deleted (400: change it with PUT or delete the
    instance); 404 for an unknown instance or channel.

    Args:
        notification_name (str):
        channel_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        notification_name=notification_name,
        channel_name=channel_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    notification_name: str,
    channel_name: str,
    *,
    client: Client,
) -> Response[Message]:
    """Delete an extra delivery channel

     Deletes an extra channel and its category; NTFDL is audited with the instance's and the channel's
    names. The instance's own channel cannot be deleted (400: change it with PUT or delete the
    instance); 404 for an unknown instance or channel.

    Args:
        notification_name (str):
        channel_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        notification_name=notification_name,
        channel_name=channel_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    notification_name: str,
    channel_name: str,
    *,
    client: Client,
) -> Message:
    """Delete an extra delivery channel

     Deletes an extra channel and its category; NTFDL is audited with the instance's and the channel's
    names. The instance's own channel cannot be deleted (400: change it with PUT or delete the
    instance); 404 for an unknown instance or channel.

    Args:
        notification_name (str):
        channel_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            notification_name=notification_name,
            channel_name=channel_name,
            client=client,
        )
    ).parsed
