from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
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


def _parse_response(*, client: Client, response: httpx.Response) -> ServiceCreated:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ServiceCreated.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ServiceCreated]:
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
    body: PackageInstallRequest,
) -> Response[ServiceCreated]:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors and rights: admins only, in every authentication mode (401 without a token, 403 for
    every other role).

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
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
    body: PackageInstallRequest,
) -> ServiceCreated:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors and rights: admins only, in every authentication mode (401 without a token, 403 for
    every other role).

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: PackageInstallRequest,
) -> Response[ServiceCreated]:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors and rights: admins only, in every authentication mode (401 without a token, 403 for
    every other role).

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: PackageInstallRequest,
) -> ServiceCreated:
    """Install a plugin package

     As `POST /edge/service?action=install`, for a plugin package: installs it in the background and
    answers at once; once the task is Complete, the plugin can be named by services like a built-in one.
    Same errors and rights: admins only, in every authentication mode (401 without a token, 403 for
    every other role).

    Args:
        body (PackageInstallRequest): A service package to install from the configured repository
            (`?action=install`).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
