from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.config_item import ConfigItem
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    name: str,
    item: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/category/{name}/{item}/value".format(
            name=quote(str(name), safe=""),
            item=quote(str(item), safe=""),
        ),
    }

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
) -> Response[ConfigItem | Error]:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigItem | Error]
    """

    kwargs = _get_kwargs(
        name=name,
        item=item,
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
) -> ConfigItem | Error | None:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

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
    ).parsed


async def asyncio_detailed(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ConfigItem | Error]:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigItem | Error]
    """

    kwargs = _get_kwargs(
        name=name,
        item=item,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    item: str,
    *,
    client: AuthenticatedClient | Client,
) -> ConfigItem | Error | None:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

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
        )
    ).parsed
