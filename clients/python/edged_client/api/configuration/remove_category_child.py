from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category_children import CategoryChildren
from ...models.error import Error
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
    child: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[CategoryChildren | Error]:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryChildren | Error]
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
    client: AuthenticatedClient | Client,
) -> CategoryChildren | Error | None:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryChildren | Error
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
    client: AuthenticatedClient | Client,
) -> Response[CategoryChildren | Error]:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryChildren | Error]
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
    client: AuthenticatedClient | Client,
) -> CategoryChildren | Error | None:
    """Detach a child category

     Detaches a child from this category, which makes it a root; both categories stay. Returns the keys
    of the remaining children. An unknown category, or a category that is not a child of this one, is
    404.

    Args:
        name (str):
        child (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryChildren | Error
    """

    return (
        await asyncio_detailed(
            name=name,
            child=child,
            client=client,
        )
    ).parsed
