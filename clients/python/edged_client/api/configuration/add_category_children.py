from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category_children import CategoryChildren
from ...models.category_children_add import CategoryChildrenAdd
from ...models.error import Error
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


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CategoryChildren | Error | None:
    if response.status_code == 200:
        response_200 = CategoryChildren.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CategoryChildren | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: CategoryChildrenAdd,
) -> Response[CategoryChildren | Error]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryChildren | Error]
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
    client: AuthenticatedClient | Client,
    body: CategoryChildrenAdd,
) -> CategoryChildren | Error | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryChildren | Error
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: CategoryChildrenAdd,
) -> Response[CategoryChildren | Error]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryChildren | Error]
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
    client: AuthenticatedClient | Client,
    body: CategoryChildrenAdd,
) -> CategoryChildren | Error | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryChildren | Error
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
