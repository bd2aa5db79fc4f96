from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.config_item import ConfigItem
from ...models.config_value import ConfigValue
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    name: str,
    item: str,
    *,
    body: ConfigValue,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/category/{name}/{item}".format(
            name=quote(str(name), safe=""),
            item=quote(str(item), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConfigItem | Error | None:
    if response.status_code == 200:
        response_200 = ConfigItem.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConfigItem | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
    body: ConfigValue,
) -> Response[ConfigItem | Error]:
    """Set a configuration item's value

     Validates the value against the item's type and attributes (400 naming the broken rule; a `readonly`
    item is 400 too), stores it, writes a CONCH audit entry `{category, item, oldValue, newValue}` with
    secrets masked, and then notifies the category's listeners (a listener's failure never undoes the
    write). Writes to `rest_api`, `password` and `Installation` need an admin (403).

    Args:
        name (str):
        item (str):
        body (ConfigValue): A new value for a configuration item.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigItem | Error]
    """

    kwargs = _get_kwargs(
        name=name,
        item=item,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
    body: ConfigValue,
) -> ConfigItem | Error | None:
    """Set a configuration item's value

     Validates the value against the item's type and attributes (400 naming the broken rule; a `readonly`
    item is 400 too), stores it, writes a CONCH audit entry `{category, item, oldValue, newValue}` with
    secrets masked, and then notifies the category's listeners (a listener's failure never undoes the
    write). Writes to `rest_api`, `password` and `Installation` need an admin (403).

    Args:
        name (str):
        item (str):
        body (ConfigValue): A new value for a configuration item.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConfigItem | Error
    """

    return sync_detailed(
        name=name,
        item=item,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
    body: ConfigValue,
) -> Response[ConfigItem | Error]:
    """Set a configuration item's value

     Validates the value against the item's type and attributes (400 naming the broken rule; a `readonly`
    item is 400 too), stores it, writes a CONCH audit entry `{category, item, oldValue, newValue}` with
    secrets masked, and then notifies the category's listeners (a listener's failure never undoes the
    write). Writes to `rest_api`, `password` and `Installation` need an admin (403).

    Args:
        name (str):
        item (str):
        body (ConfigValue): A new value for a configuration item.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigItem | Error]
    """

    kwargs = _get_kwargs(
        name=name,
        item=item,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
    body: ConfigValue,
) -> ConfigItem | Error | None:
    """Set a configuration item's value

     Validates the value against the item's type and attributes (400 naming the broken rule; a `readonly`
    item is 400 too), stores it, writes a CONCH audit entry `{category, item, oldValue, newValue}` with
    secrets masked, and then notifies the category's listeners (a listener's failure never undoes the
    write). Writes to `rest_api`, `password` and `Installation` need an admin (403).

    Args:
        name (str):
        item (str):
        body (ConfigValue): A new value for a configuration item.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConfigItem | Error
    """

    return (
        await asyncio_detailed(
            name=name,
            item=item,
            client=client,
            body=body,
        )
    ).parsed
