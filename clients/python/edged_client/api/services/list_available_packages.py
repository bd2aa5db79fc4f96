from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.available_packages import AvailablePackages
from ...models.error import Error
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service/available",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AvailablePackages | Error | None:
    if response.status_code == 200:
        response_200 = AvailablePackages.from_dict(response.json())

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
) -> Response[AvailablePackages | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AvailablePackages | Error]:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable or its index is
    unsigned or not signed by a key of `Installation.trustedKeys`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailablePackages | Error]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> AvailablePackages | Error | None:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable or its index is
    unsigned or not signed by a key of `Installation.trustedKeys`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailablePackages | Error
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AvailablePackages | Error]:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable or its index is
    unsigned or not signed by a key of `Installation.trustedKeys`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailablePackages | Error]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> AvailablePackages | Error | None:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable or its index is
    unsigned or not signed by a key of `Installation.trustedKeys`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailablePackages | Error
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
