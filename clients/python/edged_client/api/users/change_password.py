from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...models.password_change import PasswordChange
from ...types import Response


def _get_kwargs(
    user_id: int,
    *,
    body: PasswordChange,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/user/{user_id}/password".format(
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Message:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Message]:
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
    user_id: int,
    *,
    client: Client,
    body: PasswordChange,
) -> Response[Message]:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user id answers exactly as a wrong current password (401), so that the call does not
    tell which ids exist. A caller who sends a token must be that user or an admin (403). Ends all
    sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: int,
    *,
    client: Client,
    body: PasswordChange,
) -> Message:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user id answers exactly as a wrong current password (401), so that the call does not
    tell which ids exist. A caller who sends a token must be that user or an admin (403). Ends all
    sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    user_id: int,
    *,
    client: Client,
    body: PasswordChange,
) -> Response[Message]:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user id answers exactly as a wrong current password (401), so that the call does not
    tell which ids exist. A caller who sends a token must be that user or an admin (403). Ends all
    sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: int,
    *,
    client: Client,
    body: PasswordChange,
) -> Message:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user id answers exactly as a wrong current password (401), so that the call does not
    tell which ids exist. A caller who sends a token must be that user or an admin (403). Ends all
    sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            body=body,
        )
    ).parsed
