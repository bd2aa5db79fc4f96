from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...models.repository_request import RepositoryRequest
from ...types import Response


def _get_kwargs(
    *,
    body: RepositoryRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/repository",
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
    *,
    client: Client,
    body: RepositoryRequest,
) -> Response[Message]:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`, and only an index that
    is not expired and not older than the last one the gateway accepted from that URL (the gateway
    remembers the highest index version per repository URL). A pin never moves an installed package to a
    lower version by itself: only `PUT /edge/update?allowDowngrade=true`, or an install with
    `allowDowngrade`, does, while a version is pinned, and audits it as a downgrade (PKGUP WARNING,
    `"downgrade": true`). Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
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
    body: RepositoryRequest,
) -> Message:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`, and only an index that
    is not expired and not older than the last one the gateway accepted from that URL (the gateway
    remembers the highest index version per repository URL). A pin never moves an installed package to a
    lower version by itself: only `PUT /edge/update?allowDowngrade=true`, or an install with
    `allowDowngrade`, does, while a version is pinned, and audits it as a downgrade (PKGUP WARNING,
    `"downgrade": true`). Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: RepositoryRequest,
) -> Response[Message]:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`, and only an index that
    is not expired and not older than the last one the gateway accepted from that URL (the gateway
    remembers the highest index version per repository URL). A pin never moves an installed package to a
    lower version by itself: only `PUT /edge/update?allowDowngrade=true`, or an install with
    `allowDowngrade`, does, while a version is pinned, and audits it as a downgrade (PKGUP WARNING,
    `"downgrade": true`). Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: RepositoryRequest,
) -> Message:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`, and only an index that
    is not expired and not older than the last one the gateway accepted from that URL (the gateway
    remembers the highest index version per repository URL). A pin never moves an installed package to a
    lower version by itself: only `PUT /edge/update?allowDowngrade=true`, or an install with
    `allowDowngrade`, does, while a version is pinned, and audits it as a downgrade (PKGUP WARNING,
    `"downgrade": true`). Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
