from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.package_install_request import PackageInstallRequest
from ...models.service_created import ServiceCreated
from ...types import Response


def _get_kwargs(
    *,
    body: PackageInstallRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/plugin",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ServiceCreated | None:
    if response.status_code == 200:
        response_200 = ServiceCreated.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = Error.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | ServiceCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PackageInstallRequest,
) -> Response[Error | ServiceCreated]:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors.

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceCreated]
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
    body: PackageInstallRequest,
) -> Error | ServiceCreated | None:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors.

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PackageInstallRequest,
) -> Response[Error | ServiceCreated]:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors.

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PackageInstallRequest,
) -> Error | ServiceCreated | None:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors.

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
