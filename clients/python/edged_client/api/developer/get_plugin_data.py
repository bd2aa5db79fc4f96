from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.plugin_data import PluginData
from ...types import Response


def _get_kwargs(
    service_name: str,
    plugin_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service/{service_name}/plugin/{plugin_name}/data".format(
            service_name=quote(str(service_name), safe=""),
            plugin_name=quote(str(plugin_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> PluginData:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = PluginData.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[PluginData]:
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
) -> Response[PluginData]:
    """Get a plugin's persisted data

     Returns the data the plugin persisted at its last shutdown (while the service runs, that of the
    previous shutdown). An unknown service, or no data, is 404.

    Args:
        service_name (str):
        plugin_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[PluginData]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        plugin_name=plugin_name,
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
) -> PluginData:
    """Get a plugin's persisted data

     Returns the data the plugin persisted at its last shutdown (while the service runs, that of the
    previous shutdown). An unknown service, or no data, is 404.

    Args:
        service_name (str):
        plugin_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        PluginData
    """

    return sync_detailed(
        service_name=service_name,
        plugin_name=plugin_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
) -> Response[PluginData]:
    """Get a plugin's persisted data

     Returns the data the plugin persisted at its last shutdown (while the service runs, that of the
    previous shutdown). An unknown service, or no data, is 404.

    Args:
        service_name (str):
        plugin_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[PluginData]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        plugin_name=plugin_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    plugin_name: str,
    *,
    client: Client,
) -> PluginData:
    """Get a plugin's persisted data

     Returns the data the plugin persisted at its last shutdown (while the service runs, that of the
    previous shutdown). An unknown service, or no data, is 404.

    Args:
        service_name (str):
        plugin_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        PluginData
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            plugin_name=plugin_name,
            client=client,
        )
    ).parsed
