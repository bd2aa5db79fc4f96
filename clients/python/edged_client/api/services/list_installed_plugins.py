from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.installed_plugins import InstalledPlugins
from ...models.plugin_type import PluginType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    type_: PluginType | None = None,
    config: bool | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if type_ is not None:
        json_type_: str | Unset = UNSET
        if not isinstance(type_, Unset):
            json_type_ = type_.value

        params["type"] = json_type_

    if config is not None:
        params["config"] = config

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/plugin/installed",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> InstalledPlugins:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = InstalledPlugins.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[InstalledPlugins]:
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
    type_: PluginType | None = None,
    config: bool | None = None,
) -> Response[InstalledPlugins]:
    """List the plugins services can be created from

     The plugin catalogue: every plugin this gateway can run, built in (`origin` builtin) or installed
    from a package (`origin` package), sorted by type and name, with its version and description. With
    `config=true` each plugin carries `config`, the configuration items a service (or, for a filter
    plugin, a filter instance) of it gets, with every attribute a form needs (type, default, minimum,
    maximum, length, order, displayName, validity, mandatory, readonly, options) and `value` at the
    default, password defaults masked: exactly what `GET /edge/category/{name}` shows of a service
    created from the plugin without `config`. The items are the plugin's own and the service's: `plugin`
    (readonly, the plugin's name) for every service, the buffer limits `bufferThreshold` and
    `maxSendLatency` of a south service, `enable` of a filter instance. `type` limits the list to one
    kind of plugin; an unknown type is 400. A plugin package installed or removed shows here at once.

    Args:
        type_ (PluginType | Unset): A kind of plugin. Example: south.
        config (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[InstalledPlugins]
    """

    kwargs = _get_kwargs(
        type_=type_,
        config=config,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    type_: PluginType | None = None,
    config: bool | None = None,
) -> InstalledPlugins:
    """List the plugins services can be created from

     The plugin catalogue: every plugin this gateway can run, built in (`origin` builtin) or installed
    from a package (`origin` package), sorted by type and name, with its version and description. With
    `config=true` each plugin carries `config`, the configuration items a service (or, for a filter
    plugin, a filter instance) of it gets, with every attribute a form needs (type, default, minimum,
    maximum, length, order, displayName, validity, mandatory, readonly, options) and `value` at the
    default, password defaults masked: exactly what `GET /edge/category/{name}` shows of a service
    created from the plugin without `config`. The items are the plugin's own and the service's: `plugin`
    (readonly, the plugin's name) for every service, the buffer limits `bufferThreshold` and
    `maxSendLatency` of a south service, `enable` of a filter instance. `type` limits the list to one
    kind of plugin; an unknown type is 400. A plugin package installed or removed shows here at once.

    Args:
        type_ (PluginType | Unset): A kind of plugin. Example: south.
        config (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        InstalledPlugins
    """

    return sync_detailed(
        client=client,
        type_=type_,
        config=config,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    type_: PluginType | None = None,
    config: bool | None = None,
) -> Response[InstalledPlugins]:
    """List the plugins services can be created from

     The plugin catalogue: every plugin this gateway can run, built in (`origin` builtin) or installed
    from a package (`origin` package), sorted by type and name, with its version and description. With
    `config=true` each plugin carries `config`, the configuration items a service (or, for a filter
    plugin, a filter instance) of it gets, with every attribute a form needs (type, default, minimum,
    maximum, length, order, displayName, validity, mandatory, readonly, options) and `value` at the
    default, password defaults masked: exactly what `GET /edge/category/{name}` shows of a service
    created from the plugin without `config`. The items are the plugin's own and the service's: `plugin`
    (readonly, the plugin's name) for every service, the buffer limits `bufferThreshold` and
    `maxSendLatency` of a south service, `enable` of a filter instance. `type` limits the list to one
    kind of plugin; an unknown type is 400. A plugin package installed or removed shows here at once.

    Args:
        type_ (PluginType | Unset): A kind of plugin. Example: south.
        config (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[InstalledPlugins]
    """

    kwargs = _get_kwargs(
        type_=type_,
        config=config,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    type_: PluginType | None = None,
    config: bool | None = None,
) -> InstalledPlugins:
    """List the plugins services can be created from

     The plugin catalogue: every plugin this gateway can run, built in (`origin` builtin) or installed
    from a package (`origin` package), sorted by type and name, with its version and description. With
    `config=true` each plugin carries `config`, the configuration items a service (or, for a filter
    plugin, a filter instance) of it gets, with every attribute a form needs (type, default, minimum,
    maximum, length, order, displayName, validity, mandatory, readonly, options) and `value` at the
    default, password defaults masked: exactly what `GET /edge/category/{name}` shows of a service
    created from the plugin without `config`. The items are the plugin's own and the service's: `plugin`
    (readonly, the plugin's name) for every service, the buffer limits `bufferThreshold` and
    `maxSendLatency` of a south service, `enable` of a filter instance. `type` limits the list to one
    kind of plugin; an unknown type is 400. A plugin package installed or removed shows here at once.

    Args:
        type_ (PluginType | Unset): A kind of plugin. Example: south.
        config (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        InstalledPlugins
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
            config=config,
        )
    ).parsed
