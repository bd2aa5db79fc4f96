from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.category_children import CategoryChildren
from ...types import Response


def _get_kwargs(
    name: str,
    child: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/category/{name}/children/{child}".format(
            name=quote(str(name), safe=""),
            child=quote(str(child), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> CategoryChildren:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = CategoryChildren.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[CategoryChildren]:
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
    child: str,
    *,
    client: Client,
) -> Response[CategoryChildren]:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryChildren]
    """

    kwargs = _get_kwargs(
        name=name,
        child=child,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    child: str,
    *,
    client: Client,
) -> CategoryChildren:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryChildren
    """

    return sync_detailed(
        name=name,
        child=child,
        client=client,
    ).parsed


async def asyncio_detailed(
    name: str,
    child: str,
    *,
    client: Client,
) -> Response[CategoryChildren]:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryChildren]
    """

    kwargs = _get_kwargs(
        name=name,
        child=child,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    child: str,
    *,
    client: Client,
) -> CategoryChildren:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryChildren
    """

    return (
        await asyncio_detailed(
            name=name,
            child=child,
            client=client,
        )
    ).parsed
