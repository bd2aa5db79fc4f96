from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.installed_services import InstalledServices
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service/installed",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> InstalledServices:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = InstalledServices.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[InstalledServices]:
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
) -> Response[InstalledServices]:
    """List installed service kinds

     Returns the kinds of service installed on this gateway, e.g. storage, south, north: the kinds of its
    built-in plugins and of the plugins of installed packages.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[InstalledServices]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> InstalledServices:
    """List installed service kinds

     Returns the kinds of service installed on this gateway, e.g. storage, south, north: the kinds of its
    built-in plugins and of the plugins of installed packages.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        InstalledServices
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[InstalledServices]:
    """List installed service kinds

     Returns the kinds of service installed on this gateway, e.g. storage, south, north: the kinds of its
    built-in plugins and of the plugins of installed packages.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[InstalledServices]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> InstalledServices:
    """List installed service kinds

     Returns the kinds of service installed on this gateway, e.g. storage, south, north: the kinds of its
    built-in plugins and of the plugins of installed packages.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        InstalledServices
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
