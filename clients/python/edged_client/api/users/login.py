from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | LoginResult | None:
    if response.status_code == 200:
        response_200 = LoginResult.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | LoginResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest | Unset = UNSET,
) -> Response[Error | LoginResult]:
    """Log in

     Exchanges a user name and password (JSON), or the client certificate of the TLS connection (HTTPS
    with mutual TLS), for a session token. A failure is 401 with the same message for an unknown user
    and a wrong password, and writes a LOGFL audit entry naming the client address; an expired password
    is 401 "Your password has expired"; a password over 72 bytes is 400 (it cannot be anyone's: bcrypt
    reads at most 72). Failed logins are counted per user and client address (the TCP peer address;
    `X-Forwarded-For` is ignored), each attempt before its password is compared, so concurrent guesses
    cannot outrun the count: after 5 consecutive failures that address is locked out of the account for
    1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); other addresses can still log
    in. A successful login clears the address's count; failures are forgotten 24 h after the address's
    last attempt. `rest_api.authMethod` `certificate` refuses passwords and `password` refuses
    certificates (401), as does a user's `access_method` (`cert`, `pwd`). Certificates are checked as
    for `POST /edge/authenticate`: a PEM body (`text/plain`) is accepted only as a copy of the
    connection's own TLS client certificate.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LoginResult]
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
    client: AuthenticatedClient | Client,
    body: LoginRequest | Unset = UNSET,
) -> Error | LoginResult | None:
    """Log in

     Exchanges a user name and password (JSON), or the client certificate of the TLS connection (HTTPS
    with mutual TLS), for a session token. A failure is 401 with the same message for an unknown user
    and a wrong password, and writes a LOGFL audit entry naming the client address; an expired password
    is 401 "Your password has expired"; a password over 72 bytes is 400 (it cannot be anyone's: bcrypt
    reads at most 72). Failed logins are counted per user and client address (the TCP peer address;
    `X-Forwarded-For` is ignored), each attempt before its password is compared, so concurrent guesses
    cannot outrun the count: after 5 consecutive failures that address is locked out of the account for
    1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); other addresses can still log
    in. A successful login clears the address's count; failures are forgotten 24 h after the address's
    last attempt. `rest_api.authMethod` `certificate` refuses passwords and `password` refuses
    certificates (401), as does a user's `access_method` (`cert`, `pwd`). Certificates are checked as
    for `POST /edge/authenticate`: a PEM body (`text/plain`) is accepted only as a copy of the
    connection's own TLS client certificate.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LoginResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest | Unset = UNSET,
) -> Response[Error | LoginResult]:
    """Log in

     Exchanges a user name and password (JSON), or the client certificate of the TLS connection (HTTPS
    with mutual TLS), for a session token. A failure is 401 with the same message for an unknown user
    and a wrong password, and writes a LOGFL audit entry naming the client address; an expired password
    is 401 "Your password has expired"; a password over 72 bytes is 400 (it cannot be anyone's: bcrypt
    reads at most 72). Failed logins are counted per user and client address (the TCP peer address;
    `X-Forwarded-For` is ignored), each attempt before its password is compared, so concurrent guesses
    cannot outrun the count: after 5 consecutive failures that address is locked out of the account for
    1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); other addresses can still log
    in. A successful login clears the address's count; failures are forgotten 24 h after the address's
    last attempt. `rest_api.authMethod` `certificate` refuses passwords and `password` refuses
    certificates (401), as does a user's `access_method` (`cert`, `pwd`). Certificates are checked as
    for `POST /edge/authenticate`: a PEM body (`text/plain`) is accepted only as a copy of the
    connection's own TLS client certificate.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LoginResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest | Unset = UNSET,
) -> Error | LoginResult | None:
    """Log in

     Exchanges a user name and password (JSON), or the client certificate of the TLS connection (HTTPS
    with mutual TLS), for a session token. A failure is 401 with the same message for an unknown user
    and a wrong password, and writes a LOGFL audit entry naming the client address; an expired password
    is 401 "Your password has expired"; a password over 72 bytes is 400 (it cannot be anyone's: bcrypt
    reads at most 72). Failed logins are counted per user and client address (the TCP peer address;
    `X-Forwarded-For` is ignored), each attempt before its password is compared, so concurrent guesses
    cannot outrun the count: after 5 consecutive failures that address is locked out of the account for
    1 min, then 15 min after 5 more, then 1 h (429 with `Retry-After`); other addresses can still log
    in. A successful login clears the address's count; failures are forgotten 24 h after the address's
    last attempt. `rest_api.authMethod` `certificate` refuses passwords and `password` refuses
    certificates (401), as does a user's `access_method` (`cert`, `pwd`). Certificates are checked as
    for `POST /edge/authenticate`: a PEM body (`text/plain`) is accepted only as a copy of the
    connection's own TLS client certificate.

    Args:
        body (LoginRequest | Unset): User name and password.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LoginResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
