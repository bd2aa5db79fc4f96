from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.fleet_document import FleetDocument
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/config/export",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> FleetDocument:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = FleetDocument.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[FleetDocument]:
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
) -> Response[FleetDocument]:
    """Export the gateway's whole configuration as one document

     Returns the configuration of the gateway as one document (`FleetDocument`): the configuration
    categories that belong to no service, filter or notification (item values; the item definitions too
    for categories the gateway does not seed), the services with their plugin configuration and filter
    pipelines, the filter instances, the notifications with their rule, delivery and extra channels, the
    gateway's own schedules, and the users with their roles. Secrets are never exported: a password
    item's value and a non-admin user's password are references to environment variables named after
    them (`{"fromEnv": "EDGE_SECRET_<OWNER>_<ITEM>"}`, `{"fromEnv": "EDGE_PASSWORD_<USER>"}`). Every
    list is sorted by name, so two exports of the same configuration are equal. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FleetDocument]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> FleetDocument:
    """Export the gateway's whole configuration as one document

     Returns the configuration of the gateway as one document (`FleetDocument`): the configuration
    categories that belong to no service, filter or notification (item values; the item definitions too
    for categories the gateway does not seed), the services with their plugin configuration and filter
    pipelines, the filter instances, the notifications with their rule, delivery and extra channels, the
    gateway's own schedules, and the users with their roles. Secrets are never exported: a password
    item's value and a non-admin user's password are references to environment variables named after
    them (`{"fromEnv": "EDGE_SECRET_<OWNER>_<ITEM>"}`, `{"fromEnv": "EDGE_PASSWORD_<USER>"}`). Every
    list is sorted by name, so two exports of the same configuration are equal. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FleetDocument
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[FleetDocument]:
    """Export the gateway's whole configuration as one document

     Returns the configuration of the gateway as one document (`FleetDocument`): the configuration
    categories that belong to no service, filter or notification (item values; the item definitions too
    for categories the gateway does not seed), the services with their plugin configuration and filter
    pipelines, the filter instances, the notifications with their rule, delivery and extra channels, the
    gateway's own schedules, and the users with their roles. Secrets are never exported: a password
    item's value and a non-admin user's password are references to environment variables named after
    them (`{"fromEnv": "EDGE_SECRET_<OWNER>_<ITEM>"}`, `{"fromEnv": "EDGE_PASSWORD_<USER>"}`). Every
    list is sorted by name, so two exports of the same configuration are equal. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FleetDocument]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> FleetDocument:
    """Export the gateway's whole configuration as one document

     Returns the configuration of the gateway as one document (`FleetDocument`): the configuration
    categories that belong to no service, filter or notification (item values; the item definitions too
    for categories the gateway does not seed), the services with their plugin configuration and filter
    pipelines, the filter instances, the notifications with their rule, delivery and extra channels, the
    gateway's own schedules, and the users with their roles. Secrets are never exported: a password
    item's value and a non-admin user's password are references to environment variables named after
    them (`{"fromEnv": "EDGE_SECRET_<OWNER>_<ITEM>"}`, `{"fromEnv": "EDGE_PASSWORD_<USER>"}`). Every
    list is sorted by name, so two exports of the same configuration are equal. Admin only.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FleetDocument
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
