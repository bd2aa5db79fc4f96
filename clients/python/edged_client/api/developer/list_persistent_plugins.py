from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.persistent_plugins import PersistentPlugins
from ...types import Response


def _get_kwargs(
    service_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service/{service_name}/persist".format(
            service_name=quote(str(service_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PersistentPlugins | None:
    if response.status_code == 200:
        response_200 = PersistentPlugins.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | PersistentPlugins]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | PersistentPlugins]:
    """List the plugins of a service that persist data

     Returns the names of the service's plugins (its own plugin and its filters) that persist data; an
    empty array when none does. An unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersistentPlugins]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | PersistentPlugins | None:
    """List the plugins of a service that persist data

     Returns the names of the service's plugins (its own plugin and its filters) that persist data; an
    empty array when none does. An unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersistentPlugins
    """

    return sync_detailed(
        service_name=service_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | PersistentPlugins]:
    """List the plugins of a service that persist data

     Returns the names of the service's plugins (its own plugin and its filters) that persist data; an
    empty array when none does. An unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersistentPlugins]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | PersistentPlugins | None:
    """List the plugins of a service that persist data

     Returns the names of the service's plugins (its own plugin and its filters) that persist data; an
    empty array when none does. An unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersistentPlugins
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            client=client,
        )
    ).parsed
