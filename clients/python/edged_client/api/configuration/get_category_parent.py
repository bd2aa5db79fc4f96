from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.category_parent import CategoryParent
from ...types import Response


def _get_kwargs(
    name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/category/{name}/parent".format(
            name=quote(str(name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> CategoryParent:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = CategoryParent.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[CategoryParent]:
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
    *,
    client: Client,
) -> Response[CategoryParent]:
    """Get a category's parent

     Returns the parent of a category in the category tree, or `null` for a root. An unknown category is
    404. An item named `parent` cannot be read through `/edge/category/{name}/{item}`, which is why item
    definitions may not use that name.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryParent]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: Client,
) -> CategoryParent:
    """Get a category's parent

     Returns the parent of a category in the category tree, or `null` for a root. An unknown category is
    404. An item named `parent` cannot be read through `/edge/category/{name}/{item}`, which is why item
    definitions may not use that name.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryParent
    """

    return sync_detailed(
        name=name,
        client=client,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: Client,
) -> Response[CategoryParent]:
    """Get a category's parent

     Returns the parent of a category in the category tree, or `null` for a root. An unknown category is
    404. An item named `parent` cannot be read through `/edge/category/{name}/{item}`, which is why item
    definitions may not use that name.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryParent]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: Client,
) -> CategoryParent:
    """Get a category's parent

     Returns the parent of a category in the category tree, or `null` for a root. An unknown category is
    404. An item named `parent` cannot be read through `/edge/category/{name}/{item}`, which is why item
    definitions may not use that name.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryParent
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
        )
    ).parsed
