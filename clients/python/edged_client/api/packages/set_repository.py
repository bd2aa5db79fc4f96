from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryRequest,
) -> Response[Error | Message]:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    body: RepositoryRequest,
) -> Error | Message | None:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryRequest,
) -> Response[Error | Message]:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryRequest,
) -> Error | Message | None:
    """Configure the package repository

     Sets the package repository used by install, available and update (`Installation.repositoryURL` and
    `repositoryVersion`), contacting the repository only when used. `url` must be an http or https URL
    without user information (400 otherwise); `version` is `latest` (the default) or a release to pin.
    The repository is trusted only under the keys of `Installation.trustedKeys`.

    Args:
        body (RepositoryRequest): The package repository to use.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
