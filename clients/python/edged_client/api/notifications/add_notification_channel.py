from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.notification_channel import NotificationChannel
from ...models.notification_channel_create import NotificationChannelCreate
from ...types import Response


def _get_kwargs(
    notification_name: str,
    *,
    body: NotificationChannelCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/notification/{notification_name}/delivery".format(
            notification_name=quote(str(notification_name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> NotificationChannel:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = NotificationChannel.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[NotificationChannel]:
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
    *,
    client: Client,
    body: NotificationChannelCreate,
) -> Response[NotificationChannel]:
    """Add a delivery channel to a notification

     Adds an extra delivery channel: every time the instance sends, each channel delivers. Its
    configuration is the category `<notification>_channel_<name>`, a child of the instance's. 400
    invalid body or config value; 404 unknown instance or delivery plugin; 409 a channel of that name
    exists or no notification service runs.

    Args:
        notification_name (str):
        body (NotificationChannelCreate): An extra delivery channel.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[NotificationChannel]
    """

    kwargs = _get_kwargs(
        notification_name=notification_name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    notification_name: str,
    *,
    client: Client,
    body: NotificationChannelCreate,
) -> NotificationChannel:
    """Add a delivery channel to a notification

     Adds an extra delivery channel: every time the instance sends, each channel delivers. Its
    configuration is the category `<notification>_channel_<name>`, a child of the instance's. 400
    invalid body or config value; 404 unknown instance or delivery plugin; 409 a channel of that name
    exists or no notification service runs.

    Args:
        notification_name (str):
        body (NotificationChannelCreate): An extra delivery channel.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        NotificationChannel
    """

    return sync_detailed(
        notification_name=notification_name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    notification_name: str,
    *,
    client: Client,
    body: NotificationChannelCreate,
) -> Response[NotificationChannel]:
    """Add a delivery channel to a notification

     Adds an extra delivery channel: every time the instance sends, each channel delivers. Its
    configuration is the category `<notification>_channel_<name>`, a child of the instance's. 400
    invalid body or config value; 404 unknown instance or delivery plugin; 409 a channel of that name
    exists or no notification service runs.

    Args:
        notification_name (str):
        body (NotificationChannelCreate): An extra delivery channel.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[NotificationChannel]
    """

    kwargs = _get_kwargs(
        notification_name=notification_name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    notification_name: str,
    *,
    client: Client,
    body: NotificationChannelCreate,
) -> NotificationChannel:
    """Add a delivery channel to a notification

     Adds an extra delivery channel: every time the instance sends, each channel delivers. Its
    configuration is the category `<notification>_channel_<name>`, a child of the instance's. 400
    invalid body or config value; 404 unknown instance or delivery plugin; 409 a channel of that name
    exists or no notification service runs.

    Args:
        notification_name (str):
        body (NotificationChannelCreate): An extra delivery channel.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        NotificationChannel
    """

    return (
        await asyncio_detailed(
            notification_name=notification_name,
            client=client,
            body=body,
        )
    ).parsed
