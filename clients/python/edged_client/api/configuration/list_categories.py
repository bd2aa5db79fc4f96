from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.category_list import CategoryList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    root: bool | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if root is not None:
        params["root"] = root

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/category",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> CategoryList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = CategoryList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[CategoryList]:
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
    root: bool | None = None,
) -> Response[CategoryList]:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryList]
    """

    kwargs = _get_kwargs(
        root=root,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    root: bool | None = None,
) -> CategoryList:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryList
    """

    return sync_detailed(
        client=client,
        root=root,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    root: bool | None = None,
) -> Response[CategoryList]:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryList]
    """

    kwargs = _get_kwargs(
        root=root,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    root: bool | None = None,
) -> CategoryList:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryList
    """

    return (
        await asyncio_detailed(
            client=client,
            root=root,
        )
    ).parsed
