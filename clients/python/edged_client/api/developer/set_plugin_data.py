from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...models.plugin_data import PluginData
from ...types import Response


def _get_kwargs(
    service_name: str,
    plugin_name: str,
    *,
    body: PluginData,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/service/{service_name}/plugin/{plugin_name}/data".format(
            service_name=quote(str(service_name), safe=""),
            plugin_name=quote(str(plugin_name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
    body: PluginData,
) -> Response[Message]:
    """Store a plugin's persisted data

     Stores data for the plugin to load at its next start, in the plugin's own format. 409 when data
    already exists (delete it first) or while the service runs; 404 for an unknown service.

    Args:
        service_name (str):
        plugin_name (str):
        body (PluginData): Data a plugin persists between runs.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        plugin_name=plugin_name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
    body: PluginData,
) -> Message:
    """Store a plugin's persisted data

     Stores data for the plugin to load at its next start, in the plugin's own format. 409 when data
    already exists (delete it first) or while the service runs; 404 for an unknown service.

    Args:
        service_name (str):
        plugin_name (str):
        body (PluginData): Data a plugin persists between runs.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        service_name=service_name,
        plugin_name=plugin_name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
    body: PluginData,
) -> Response[Message]:
    """Store a plugin's persisted data

     Stores data for the plugin to load at its next start, in the plugin's own format. 409 when data
    already exists (delete it first) or while the service runs; 404 for an unknown service.

    Args:
        service_name (str):
        plugin_name (str):
        body (PluginData): Data a plugin persists between runs.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        plugin_name=plugin_name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
    body: PluginData,
) -> Message:
    """Store a plugin's persisted data

     Stores data for the plugin to load at its next start, in the plugin's own format. 409 when data
    already exists (delete it first) or while the service runs; 404 for an unknown service.

    Args:
        service_name (str):
        plugin_name (str):
        body (PluginData): Data a plugin persists between runs.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            plugin_name=plugin_name,
            client=client,
            body=body,
        )
    ).parsed
