from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.category_children import CategoryChildren
from ...models.category_children_add import CategoryChildrenAdd
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: CategoryChildrenAdd,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/category/{name}/children".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    *,
    client: Client,
    body: CategoryChildrenAdd,
) -> Response[CategoryChildren]:
    """Attach child categories

     Makes the named categories children of this one, all or nothing, and returns the keys of all its
    children. Attaching a category that is already a child of this one changes nothing. Each category
    has at most one parent and the tree has no cycles: a category that has another parent, or that is
    this category or one of its ancestors, is 409 (detach it first with `DELETE
    /edge/category/{parent}/children/{child}`). An unknown category, this one or a child, is 404.

    Args:
        name (str):
        body (CategoryChildrenAdd): The keys of the categories to attach as children.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryChildren]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: Client,
    body: CategoryChildrenAdd,
) -> CategoryChildren:
    """Attach child categories

     Makes the named categories children of this one, all or nothing, and returns the keys of all its
    children. Attaching a category that is already a child of this one changes nothing. Each category
    has at most one parent and the tree has no cycles: a category that has another parent, or that is
    this category or one of its ancestors, is 409 (detach it first with `DELETE
    /edge/category/{parent}/children/{child}`). An unknown category, this one or a child, is 404.

    Args:
        name (str):
        body (CategoryChildrenAdd): The keys of the categories to attach as children.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryChildren
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: Client,
    body: CategoryChildrenAdd,
) -> Response[CategoryChildren]:
    """Attach child categories

     Makes the named categories children of this one, all or nothing, and returns the keys of all its
    children. Attaching a category that is already a child of this one changes nothing. Each category
    has at most one parent and the tree has no cycles: a category that has another parent, or that is
    this category or one of its ancestors, is 409 (detach it first with `DELETE
    /edge/category/{parent}/children/{child}`). An unknown category, this one or a child, is 404.

    Args:
        name (str):
        body (CategoryChildrenAdd): The keys of the categories to attach as children.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryChildren]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: Client,
    body: CategoryChildrenAdd,
) -> CategoryChildren:
    """Attach child categories

     Makes the named categories children of this one, all or nothing, and returns the keys of all its
    children. Attaching a category that is already a child of this one changes nothing. Each category
    has at most one parent and the tree has no cycles: a category that has another parent, or that is
    this category or one of its ancestors, is 409 (detach it first with `DELETE
    /edge/category/{parent}/children/{child}`). An unknown category, this one or a child, is 404.

    Args:
        name (str):
        body (CategoryChildrenAdd): The keys of the categories to attach as children.

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
            client=client,
            body=body,
        )
    ).parsed
