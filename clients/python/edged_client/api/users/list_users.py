from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.user_list import UserList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    id: int | None = None,
    username: str | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if id is not None:
        params["id"] = id

    if username is not None:
        params["username"] = username

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/user",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> UserList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = UserList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[UserList]:
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
    id: int | None = None,
    username: str | None = None,
) -> Response[UserList]:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403), and it needs a token in
    every authentication mode (401 without one).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UserList]
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
    client: Client,
    id: int | None = None,
    username: str | None = None,
) -> UserList:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403), and it needs a token in
    every authentication mode (401 without one).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        UserList
    """

    return sync_detailed(
        client=client,
        id=id,
        username=username,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    id: int | None = None,
    username: str | None = None,
) -> Response[UserList]:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403), and it needs a token in
    every authentication mode (401 without one).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UserList]
    """

    kwargs = _get_kwargs(
        id=id,
        username=username,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    id: int | None = None,
    username: str | None = None,
) -> UserList:
    """List users

     Returns every user, or with `id` or `username` (or both) only the matching one: no match is
    `{"users": []}`. `username` is matched ignoring case, as user names are unique ignoring case.
    Passwords are never returned. Not allowed to the `data-view` role (403), and it needs a token in
    every authentication mode (401 without one).

    Args:
        id (int | Unset):
        username (str | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        UserList
    """

    return (
        await asyncio_detailed(
            client=client,
            id=id,
            username=username,
        )
    ).parsed
