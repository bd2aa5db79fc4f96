from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.notification import Notification
from ...models.notification_create import NotificationCreate
from ...types import Response


def _get_kwargs(
    *,
    body: NotificationCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/notification",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Notification:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Notification.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Notification]:
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
    body: NotificationCreate,
) -> Response[Notification]:
    """Create a notification instance

     Creates a notification instance: a rule plugin evaluated on the readings as they are committed (and
    on audit entries and statistics, for the rules that watch them), and a delivery channel that sends
    when the rule triggers, according to `notification_type`. Three configuration categories hold it,
    children of the category `Notifications`: `<name>` (the instance's settings), `rule<name>` (the rule
    plugin's items) and `delivery<name>` (the delivery plugin's items); a change to any of their items
    applies at once. The whole request is checked first, by the running notification service: an unknown
    item or a value breaking its item's rules is 400 and nothing is created; an unknown rule or delivery
    plugin is 404; a name taken by a notification or by a configuration category is 409, and so is a
    request while no notification service runs. NTFAD is audited.

    Args:
        body (NotificationCreate): A notification instance to create. Example: {'name':
            'overheat', 'description': 'Motor temperature above 80 °C', 'rule': 'threshold',
            'channel': 'webhook', 'notification_type': 'one shot', 'rule_config': {'asset': 'motor',
            'datapoint': 'temperature', 'condition': '>', 'value': '80'}, 'delivery_config': {'url':
            'http://alarms.local:8080/hook'}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Notification]
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
    body: NotificationCreate,
) -> Notification:
    """Create a notification instance

     Creates a notification instance: a rule plugin evaluated on the readings as they are committed (and
    on audit entries and statistics, for the rules that watch them), and a delivery channel that sends
    when the rule triggers, according to `notification_type`. Three configuration categories hold it,
    children of the category `Notifications`: `<name>` (the instance's settings), `rule<name>` (the rule
    plugin's items) and `delivery<name>` (the delivery plugin's items); a change to any of their items
    applies at once. The whole request is checked first, by the running notification service: an unknown
    item or a value breaking its item's rules is 400 and nothing is created; an unknown rule or delivery
    plugin is 404; a name taken by a notification or by a configuration category is 409, and so is a
    request while no notification service runs. NTFAD is audited.

    Args:
        body (NotificationCreate): A notification instance to create. Example: {'name':
            'overheat', 'description': 'Motor temperature above 80 °C', 'rule': 'threshold',
            'channel': 'webhook', 'notification_type': 'one shot', 'rule_config': {'asset': 'motor',
            'datapoint': 'temperature', 'condition': '>', 'value': '80'}, 'delivery_config': {'url':
            'http://alarms.local:8080/hook'}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Notification
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: NotificationCreate,
) -> Response[Notification]:
    """Create a notification instance

     Creates a notification instance: a rule plugin evaluated on the readings as they are committed (and
    on audit entries and statistics, for the rules that watch them), and a delivery channel that sends
    when the rule triggers, according to `notification_type`. Three configuration categories hold it,
    children of the category `Notifications`: `<name>` (the instance's settings), `rule<name>` (the rule
    plugin's items) and `delivery<name>` (the delivery plugin's items); a change to any of their items
    applies at once. The whole request is checked first, by the running notification service: an unknown
    item or a value breaking its item's rules is 400 and nothing is created; an unknown rule or delivery
    plugin is 404; a name taken by a notification or by a configuration category is 409, and so is a
    request while no notification service runs. NTFAD is audited.

    Args:
        body (NotificationCreate): A notification instance to create. Example: {'name':
            'overheat', 'description': 'Motor temperature above 80 °C', 'rule': 'threshold',
            'channel': 'webhook', 'notification_type': 'one shot', 'rule_config': {'asset': 'motor',
            'datapoint': 'temperature', 'condition': '>', 'value': '80'}, 'delivery_config': {'url':
            'http://alarms.local:8080/hook'}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Notification]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: NotificationCreate,
) -> Notification:
    """Create a notification instance

     Creates a notification instance: a rule plugin evaluated on the readings as they are committed (and
    on audit entries and statistics, for the rules that watch them), and a delivery channel that sends
    when the rule triggers, according to `notification_type`. Three configuration categories hold it,
    children of the category `Notifications`: `<name>` (the instance's settings), `rule<name>` (the rule
    plugin's items) and `delivery<name>` (the delivery plugin's items); a change to any of their items
    applies at once. The whole request is checked first, by the running notification service: an unknown
    item or a value breaking its item's rules is 400 and nothing is created; an unknown rule or delivery
    plugin is 404; a name taken by a notification or by a configuration category is 409, and so is a
    request while no notification service runs. NTFAD is audited.

    Args:
        body (NotificationCreate): A notification instance to create. Example: {'name':
            'overheat', 'description': 'Motor temperature above 80 °C', 'rule': 'threshold',
            'channel': 'webhook', 'notification_type': 'one shot', 'rule_config': {'asset': 'motor',
            'datapoint': 'temperature', 'condition': '>', 'value': '80'}, 'delivery_config': {'url':
            'http://alarms.local:8080/hook'}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Notification
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
