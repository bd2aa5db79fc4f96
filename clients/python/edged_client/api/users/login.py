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
    body: LoginRequest | Unset = UNSET,
) -> Response[LoginResult]:
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
    certificates (401), as does a user's `access_method` (`cert`, `pwd`; `ldap` users log in only with a
    password). Certificates are checked as for `POST /edge/authenticate`: a PEM body (`text/plain`) is
    accepted only as a copy of the connection's own TLS client certificate. `rest_api.authProviders`
    (default `{"providers": ["username", "ldap"]}`) says who checks a password. With `ldap` and a
    directory configured in category `LDAP` (`url` not empty), a name with no gateway user, or a user
    whose `access_method` is `ldap`, is checked by the directory: the user is searched with `userFilter`
    under `userBase` as `bindDN`, then bound with the password; the role is the most privileged one
    `groupRoles` gives the user's groups (none: 401). The first such login creates the gateway user
    (`access_method` `ldap`, no password of its own, USRAD); each later login sets its role from the
    groups again (USRCH on a change). A name the directory does not know and a password it refuses are
    the same 401 as for local users and count toward the same lockout. A directory that cannot be asked
    (unreachable, too slow, its TLS certificate not trusted, the gateway's bind refused) is 503 for its
    users, while the gateway's own users still log in. Without `username` only directory users and the
    built-in `admin` log in (other local users: 401); without `ldap` no directory is asked and `ldap`
    users are refused (401).

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
    certificates (401), as does a user's `access_method` (`cert`, `pwd`; `ldap` users log in only with a
    password). Certificates are checked as for `POST /edge/authenticate`: a PEM body (`text/plain`) is
    accepted only as a copy of the connection's own TLS client certificate. `rest_api.authProviders`
    (default `{"providers": ["username", "ldap"]}`) says who checks a password. With `ldap` and a
    directory configured in category `LDAP` (`url` not empty), a name with no gateway user, or a user
    whose `access_method` is `ldap`, is checked by the directory: the user is searched with `userFilter`
    under `userBase` as `bindDN`, then bound with the password; the role is the most privileged one
    `groupRoles` gives the user's groups (none: 401). The first such login creates the gateway user
    (`access_method` `ldap`, no password of its own, USRAD); each later login sets its role from the
    groups again (USRCH on a change). A name the directory does not know and a password it refuses are
    the same 401 as for local users and count toward the same lockout. A directory that cannot be asked
    (unreachable, too slow, its TLS certificate not trusted, the gateway's bind refused) is 503 for its
    users, while the gateway's own users still log in. Without `username` only directory users and the
    built-in `admin` log in (other local users: 401); without `ldap` no directory is asked and `ldap`
    users are refused (401).

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
    certificates (401), as does a user's `access_method` (`cert`, `pwd`; `ldap` users log in only with a
    password). Certificates are checked as for `POST /edge/authenticate`: a PEM body (`text/plain`) is
    accepted only as a copy of the connection's own TLS client certificate. `rest_api.authProviders`
    (default `{"providers": ["username", "ldap"]}`) says who checks a password. With `ldap` and a
    directory configured in category `LDAP` (`url` not empty), a name with no gateway user, or a user
    whose `access_method` is `ldap`, is checked by the directory: the user is searched with `userFilter`
    under `userBase` as `bindDN`, then bound with the password; the role is the most privileged one
    `groupRoles` gives the user's groups (none: 401). The first such login creates the gateway user
    (`access_method` `ldap`, no password of its own, USRAD); each later login sets its role from the
    groups again (USRCH on a change). A name the directory does not know and a password it refuses are
    the same 401 as for local users and count toward the same lockout. A directory that cannot be asked
    (unreachable, too slow, its TLS certificate not trusted, the gateway's bind refused) is 503 for its
    users, while the gateway's own users still log in. Without `username` only directory users and the
    built-in `admin` log in (other local users: 401); without `ldap` no directory is asked and `ldap`
    users are refused (401).

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
    certificates (401), as does a user's `access_method` (`cert`, `pwd`; `ldap` users log in only with a
    password). Certificates are checked as for `POST /edge/authenticate`: a PEM body (`text/plain`) is
    accepted only as a copy of the connection's own TLS client certificate. `rest_api.authProviders`
    (default `{"providers": ["username", "ldap"]}`) says who checks a password. With `ldap` and a
    directory configured in category `LDAP` (`url` not empty), a name with no gateway user, or a user
    whose `access_method` is `ldap`, is checked by the directory: the user is searched with `userFilter`
    under `userBase` as `bindDN`, then bound with the password; the role is the most privileged one
    `groupRoles` gives the user's groups (none: 401). The first such login creates the gateway user
    (`access_method` `ldap`, no password of its own, USRAD); each later login sets its role from the
    groups again (USRCH on a change). A name the directory does not know and a password it refuses are
    the same 401 as for local users and count toward the same lockout. A directory that cannot be asked
    (unreachable, too slow, its TLS certificate not trusted, the gateway's bind refused) is 503 for its
    users, while the gateway's own users still log in. Without `username` only directory users and the
    built-in `admin` log in (other local users: 401); without `ldap` no directory is asked and `ldap`
    users are refused (401).

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
