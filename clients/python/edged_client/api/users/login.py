from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.login_request import LoginRequest
from ...models.login_result import LoginResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: LoginRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/login",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> LoginResult:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = LoginResult.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[LoginResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: Client,
    body: LoginRequest | Unset = UNSET,
) -> Response[LoginResult]:
    """Log in

     Exchanges a user name and password (JSON), or a PEM client certificate (`text/plain`), for a session
    token; without a body, the client certificate of the TLS connection is used (HTTPS only). A failure
    is 401 with the same message for an unknown user and a wrong password, and writes a LOGFL audit
    entry; an expired password is 401 "Your password has expired". After 5 consecutive failures the
    account is locked for 1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); a
    successful login clears the count. `rest_api.authMethod` `certificate` refuses passwords and
    `password` refuses certificates (401), as does a user's `access_method` (`cert`, `pwd`).
    Certificates are checked as for `POST /edge/authenticate`.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[LoginResult]
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
    body: LoginRequest | Unset = UNSET,
) -> LoginResult:
    """Log in

     Exchanges a user name and password (JSON), or a PEM client certificate (`text/plain`), for a session
    token; without a body, the client certificate of the TLS connection is used (HTTPS only). A failure
    is 401 with the same message for an unknown user and a wrong password, and writes a LOGFL audit
    entry; an expired password is 401 "Your password has expired". After 5 consecutive failures the
    account is locked for 1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); a
    successful login clears the count. `rest_api.authMethod` `certificate` refuses passwords and
    `password` refuses certificates (401), as does a user's `access_method` (`cert`, `pwd`).
    Certificates are checked as for `POST /edge/authenticate`.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        LoginResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: LoginRequest | Unset = UNSET,
) -> Response[LoginResult]:
    """Log in

     Exchanges a user name and password (JSON), or a PEM client certificate (`text/plain`), for a session
    token; without a body, the client certificate of the TLS connection is used (HTTPS only). A failure
    is 401 with the same message for an unknown user and a wrong password, and writes a LOGFL audit
    entry; an expired password is 401 "Your password has expired". After 5 consecutive failures the
    account is locked for 1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); a
    successful login clears the count. `rest_api.authMethod` `certificate` refuses passwords and
    `password` refuses certificates (401), as does a user's `access_method` (`cert`, `pwd`).
    Certificates are checked as for `POST /edge/authenticate`.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[LoginResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: LoginRequest | Unset = UNSET,
) -> LoginResult:
    """Log in

     Exchanges a user name and password (JSON), or a PEM client certificate (`text/plain`), for a session
    token; without a body, the client certificate of the TLS connection is used (HTTPS only). A failure
    is 401 with the same message for an unknown user and a wrong password, and writes a LOGFL audit
    entry; an expired password is 401 "Your password has expired". After 5 consecutive failures the
    account is locked for 1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); a
    successful login clears the count. `rest_api.authMethod` `certificate` refuses passwords and
    `password` refuses certificates (401), as does a user's `access_method` (`cert`, `pwd`).
    Certificates are checked as for `POST /edge/authenticate`.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        LoginResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
