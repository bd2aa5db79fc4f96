from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.config_item import ConfigItem
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


def _parse_response(*, client: Client, response: httpx.Response) -> ConfigItem:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ConfigItem.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ConfigItem]:
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
    name: str,
    item: str,
    *,
    client: Client,
) -> Response[ConfigItem]:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ConfigItem]
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
    client: Client,
) -> ConfigItem:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ConfigItem
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
    client: Client,
) -> Response[ConfigItem]:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ConfigItem]
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
    client: Client,
) -> ConfigItem:
    """Reset a configuration item

     Sets the item's value back to its default, or to the empty string where it has none, writes a CONCH
    audit entry and notifies listeners. A `readonly` item is 400; writes to `rest_api`, `password` and
    `Installation` need an admin (403).

    Args:
        name (str):
        item (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ConfigItem
    """

    return (
        await asyncio_detailed(
            name=name,
            item=item,
            client=client,
        )
    ).parsed
