from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Message | None:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Message]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: int,
    *,
    client: AuthenticatedClient | Client,
    body: PasswordChange,
) -> Response[Error | Message]:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user is 404. A caller who sends a token must be that user or an admin (403). Ends
    all sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    client: AuthenticatedClient | Client,
    body: PasswordChange,
) -> Error | Message | None:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user is 404. A caller who sends a token must be that user or an admin (403). Ends
    all sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    user_id: int,
    *,
    client: AuthenticatedClient | Client,
    body: PasswordChange,
) -> Response[Error | Message]:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user is 404. A caller who sends a token must be that user or an admin (403). Ends
    all sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    client: AuthenticatedClient | Client,
    body: PasswordChange,
) -> Error | Message | None:
    """Change a user's password

     Sets a new password after checking the current one; needs no token, so an expired password can be
    replaced. A wrong current password is 401 and counts as a failed login of the client address (LOGFL;
    an address locked out of the account answers 429, as for `POST /edge/login`); a password over 72
    bytes, a new password breaking the `password` category's policy or equal to one of the last 3 is
    400; an unknown user is 404. A caller who sends a token must be that user or an admin (403). Ends
    all sessions of the user and writes a USRCH audit entry.

    Args:
        user_id (int):
        body (PasswordChange):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            body=body,
        )
    ).parsed
