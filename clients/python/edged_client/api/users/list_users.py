from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.user_list import UserList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    id: int | Unset = UNSET,
    username: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["id"] = id

    params["username"] = username

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/user",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | UserList | None:
    if response.status_code == 200:
        response_200 = UserList.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | UserList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    id: int | Unset = UNSET,
    username: str | Unset = UNSET,
) -> Response[Error | UserList]:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UserList]
    """

    kwargs = _get_kwargs(
        id=id,
        username=username,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    id: int | Unset = UNSET,
    username: str | Unset = UNSET,
) -> Error | UserList | None:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UserList
    """

    return sync_detailed(
        client=client,
        id=id,
        username=username,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    id: int | Unset = UNSET,
    username: str | Unset = UNSET,
) -> Response[Error | UserList]:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UserList]
    """

    kwargs = _get_kwargs(
        id=id,
        username=username,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    id: int | Unset = UNSET,
    username: str | Unset = UNSET,
) -> Error | UserList | None:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UserList
    """

    return (
        await asyncio_detailed(
            client=client,
            id=id,
            username=username,
        )
    ).parsed
