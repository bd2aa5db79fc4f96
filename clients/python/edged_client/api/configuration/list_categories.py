from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category_list import CategoryList
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    root: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["root"] = root

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/category",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CategoryList | Error | None:
    if response.status_code == 200:
        response_200 = CategoryList.from_dict(response.json())

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
) -> Response[CategoryList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    root: bool | Unset = UNSET,
) -> Response[CategoryList | Error]:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryList | Error]
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
    client: AuthenticatedClient | Client,
    root: bool | Unset = UNSET,
) -> CategoryList | Error | None:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryList | Error
    """

    return sync_detailed(
        client=client,
        root=root,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    root: bool | Unset = UNSET,
) -> Response[CategoryList | Error]:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryList | Error]
    """

    kwargs = _get_kwargs(
        root=root,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    root: bool | Unset = UNSET,
) -> CategoryList | Error | None:
    """List configuration categories

     Returns the key, description and display name of every configuration category, sorted by key.
    Categories form a tree (see `/edge/category/{name}/children`): `root=true` lists only the roots, the
    categories that are no other category's child (the seeded `General`, `Advanced` and `Utilities`
    among them); `root=false` lists only the categories that have a parent.

    Args:
        root (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryList | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            root=root,
        )
    ).parsed
