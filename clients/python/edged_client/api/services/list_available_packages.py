from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.available_packages import AvailablePackages
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service/available",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> AvailablePackages:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = AvailablePackages.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[AvailablePackages]:
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
) -> Response[AvailablePackages]:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable, times out or
    answers an error status, or its index is unsigned, not signed by a key of
    `Installation.trustedKeys`, expired, or older than one the gateway accepted from that repository
    before (a rollback; a refused index is audited PKGIN FAILURE).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AvailablePackages]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> AvailablePackages:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable, times out or
    answers an error status, or its index is unsigned, not signed by a key of
    `Installation.trustedKeys`, expired, or older than one the gateway accepted from that repository
    before (a rollback; a refused index is audited PKGIN FAILURE).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AvailablePackages
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[AvailablePackages]:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable, times out or
    answers an error status, or its index is unsigned, not signed by a key of
    `Installation.trustedKeys`, expired, or older than one the gateway accepted from that repository
    before (a rollback; a refused index is audited PKGIN FAILURE).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AvailablePackages]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> AvailablePackages:
    """List installable service packages

     Asks the configured package repository which service packages can be installed: those of its
    verified index that are not installed and have an artifact for this gateway's OS and architecture,
    at the newest version or the one `POST /edge/repository` pinned. `link` names the log of this
    repository interaction, served by `GET /edge/package/log/{name}`. 400 when no repository or trusted
    key is configured (the message says how); 502 when the repository is unreachable, times out or
    answers an error status, or its index is unsigned, not signed by a key of
    `Installation.trustedKeys`, expired, or older than one the gateway accepted from that repository
    before (a rollback; a refused index is audited PKGIN FAILURE).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AvailablePackages
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
