from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.admin_user_update_with_id import AdminUserUpdateWithId
from ...models.user import User
from ...types import Response


def _get_kwargs(
    *,
    body: AdminUserUpdateWithId,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
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
    body: AdminUserUpdateWithId,
) -> Response[User]:
    """Update a user (id in the body)

     Changes the description, access method, real name or role of the user named by `user_id`; a role
    change ends the user's sessions. Writes a USRCH audit entry. Admin only (403); unknown user 404;
    taking the admin role from the `admin` user is 400.

    Args:
        body (AdminUserUpdateWithId): Changes to the user named by `user_id`; at least one field
            besides it. Taking the admin role from the `admin` user is 400.

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
    body: AdminUserUpdateWithId,
) -> User:
    """Update a user (id in the body)

     Changes the description, access method, real name or role of the user named by `user_id`; a role
    change ends the user's sessions. Writes a USRCH audit entry. Admin only (403); unknown user 404;
    taking the admin role from the `admin` user is 400.

    Args:
        body (AdminUserUpdateWithId): Changes to the user named by `user_id`; at least one field
            besides it. Taking the admin role from the `admin` user is 400.

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
    body: AdminUserUpdateWithId,
) -> Response[User]:
    """Update a user (id in the body)

     Changes the description, access method, real name or role of the user named by `user_id`; a role
    change ends the user's sessions. Writes a USRCH audit entry. Admin only (403); unknown user 404;
    taking the admin role from the `admin` user is 400.

    Args:
        body (AdminUserUpdateWithId): Changes to the user named by `user_id`; at least one field
            besides it. Taking the admin role from the `admin` user is 400.

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
    body: AdminUserUpdateWithId,
) -> User:
    """Update a user (id in the body)

     Changes the description, access method, real name or role of the user named by `user_id`; a role
    change ends the user's sessions. Writes a USRCH audit entry. Admin only (403); unknown user 404;
    taking the admin role from the `admin` user is 400.

    Args:
        body (AdminUserUpdateWithId): Changes to the user named by `user_id`; at least one field
            besides it. Taking the admin role from the `admin` user is 400.

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
