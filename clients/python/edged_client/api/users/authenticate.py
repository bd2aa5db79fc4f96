from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.certificate_login import CertificateLogin
from ...models.login_result import LoginResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CertificateLogin | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/authenticate",
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
    body: CertificateLogin | Unset = UNSET,
) -> Response[LoginResult]:
    """Log in with a client certificate

     The certificate entry point, answering as `POST /edge/login`. A certificate logs in only when the
    TLS handshake of the same connection presented it (HTTPS with a client certificate, which proves
    possession of its private key): a certificate is public, so one merely sent in the body proves
    nothing. The body may be empty, or the PEM of that same client certificate; any other PEM body, or
    any request without a TLS client certificate (plain HTTP included), is 401. The certificate must be
    valid now, allow client authentication and be signed by the certificate authority named by
    `rest_api.authCertificateName`, whose PEM file is `<data dir>/certs/<name>.cert` (intermediates the
    client presents may complete the chain); its subject common name is the user name. Anything else is
    401 with a message saying why (no TLS client certificate, a body other than it, no such authority,
    not signed by it, no such user, `access_method` `pwd`, `authMethod` `password`), and writes LOGFL; a
    body that is not PEM is 400. The PEM comes as JSON (`{"certificate": "-----BEGIN
    CERTIFICATE-----…"}`, what generated clients send) or, in the specification's form, as the
    `text/plain` body itself; both mean the same.

    Args:
        body (CertificateLogin | Unset): The JSON form of a certificate body (`POST
            /edge/authenticate`).

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
    body: CertificateLogin | Unset = UNSET,
) -> LoginResult:
    """Log in with a client certificate

     The certificate entry point, answering as `POST /edge/login`. A certificate logs in only when the
    TLS handshake of the same connection presented it (HTTPS with a client certificate, which proves
    possession of its private key): a certificate is public, so one merely sent in the body proves
    nothing. The body may be empty, or the PEM of that same client certificate; any other PEM body, or
    any request without a TLS client certificate (plain HTTP included), is 401. The certificate must be
    valid now, allow client authentication and be signed by the certificate authority named by
    `rest_api.authCertificateName`, whose PEM file is `<data dir>/certs/<name>.cert` (intermediates the
    client presents may complete the chain); its subject common name is the user name. Anything else is
    401 with a message saying why (no TLS client certificate, a body other than it, no such authority,
    not signed by it, no such user, `access_method` `pwd`, `authMethod` `password`), and writes LOGFL; a
    body that is not PEM is 400. The PEM comes as JSON (`{"certificate": "-----BEGIN
    CERTIFICATE-----…"}`, what generated clients send) or, in the specification's form, as the
    `text/plain` body itself; both mean the same.

    Args:
        body (CertificateLogin | Unset): The JSON form of a certificate body (`POST
            /edge/authenticate`).

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
    body: CertificateLogin | Unset = UNSET,
) -> Response[LoginResult]:
    """Log in with a client certificate

     The certificate entry point, answering as `POST /edge/login`. A certificate logs in only when the
    TLS handshake of the same connection presented it (HTTPS with a client certificate, which proves
    possession of its private key): a certificate is public, so one merely sent in the body proves
    nothing. The body may be empty, or the PEM of that same client certificate; any other PEM body, or
    any request without a TLS client certificate (plain HTTP included), is 401. The certificate must be
    valid now, allow client authentication and be signed by the certificate authority named by
    `rest_api.authCertificateName`, whose PEM file is `<data dir>/certs/<name>.cert` (intermediates the
    client presents may complete the chain); its subject common name is the user name. Anything else is
    401 with a message saying why (no TLS client certificate, a body other than it, no such authority,
    not signed by it, no such user, `access_method` `pwd`, `authMethod` `password`), and writes LOGFL; a
    body that is not PEM is 400. The PEM comes as JSON (`{"certificate": "-----BEGIN
    CERTIFICATE-----…"}`, what generated clients send) or, in the specification's form, as the
    `text/plain` body itself; both mean the same.

    Args:
        body (CertificateLogin | Unset): The JSON form of a certificate body (`POST
            /edge/authenticate`).

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
    body: CertificateLogin | Unset = UNSET,
) -> LoginResult:
    """Log in with a client certificate

     The certificate entry point, answering as `POST /edge/login`. A certificate logs in only when the
    TLS handshake of the same connection presented it (HTTPS with a client certificate, which proves
    possession of its private key): a certificate is public, so one merely sent in the body proves
    nothing. The body may be empty, or the PEM of that same client certificate; any other PEM body, or
    any request without a TLS client certificate (plain HTTP included), is 401. The certificate must be
    valid now, allow client authentication and be signed by the certificate authority named by
    `rest_api.authCertificateName`, whose PEM file is `<data dir>/certs/<name>.cert` (intermediates the
    client presents may complete the chain); its subject common name is the user name. Anything else is
    401 with a message saying why (no TLS client certificate, a body other than it, no such authority,
    not signed by it, no such user, `access_method` `pwd`, `authMethod` `password`), and writes LOGFL; a
    body that is not PEM is 400. The PEM comes as JSON (`{"certificate": "-----BEGIN
    CERTIFICATE-----…"}`, what generated clients send) or, in the specification's form, as the
    `text/plain` body itself; both mean the same.

    Args:
        body (CertificateLogin | Unset): The JSON form of a certificate body (`POST
            /edge/authenticate`).

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
