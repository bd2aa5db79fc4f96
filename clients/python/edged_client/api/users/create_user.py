from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.user import User
from ...models.user_create import UserCreate
from ...types import Response


def _get_kwargs(
    *,
    body: UserCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/admin/user",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> User:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = User.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[User]:
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
    body: UserCreate,
) -> Response[User]:
    """Create a user

     Creates a user (role `user` unless `role_id` says otherwise) and writes a USRAD audit entry. Admin
    only (403); a user name already in use, compared case-insensitively, is 409; a password breaking the
    policy is 400.

    Args:
        body (UserCreate): A new user.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[User]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    body: UserCreate,
) -> User:
    """Create a user

     Creates a user (role `user` unless `role_id` says otherwise) and writes a USRAD audit entry. Admin
    only (403); a user name already in use, compared case-insensitively, is 409; a password breaking the
    policy is 400.

    Args:
        body (UserCreate): A new user.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        User
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: UserCreate,
) -> Response[User]:
    """Create a user

     Creates a user (role `user` unless `role_id` says otherwise) and writes a USRAD audit entry. Admin
    only (403); a user name already in use, compared case-insensitively, is 409; a password breaking the
    policy is 400.

    Args:
        body (UserCreate): A new user.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[User]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: UserCreate,
) -> User:
    """Create a user

     Creates a user (role `user` unless `role_id` says otherwise) and writes a USRAD audit entry. Admin
    only (403); a user name already in use, compared case-insensitively, is 409; a password breaking the
    policy is 400.

    Args:
        body (UserCreate): A new user.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        User
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
