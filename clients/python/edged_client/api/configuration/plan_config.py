from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.fleet_changes import FleetChanges
from ...models.fleet_document import FleetDocument
from ...types import Response


def _get_kwargs(
    *,
    body: FleetDocument,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/config/plan",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> FleetChanges:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = FleetChanges.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[FleetChanges]:
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
    body: FleetDocument,
) -> Response[FleetChanges]:
    """Show what applying a configuration document would change

     Compares the document with the gateway and lists the changes applying it would make, in the order
    apply makes them, without writing anything. A section that is absent is not managed; a section that
    is present, even empty, is the whole truth for its kind: services, filters, notifications, channels
    and users (except `admin`) the gateway has and the section lacks are removed. Categories and
    schedules are never removed; within a category only the items listed are managed. Values are
    compared in their stored form (`True` and `true` are the same boolean). Secret values show as
    `****`. The gateway never resolves a secret reference: a document holding one is `400` naming it;
    clients replace references by their values first (the `edged config` command does, on the operator's
    machine). Also `400`: another document `version`, an item a category lacks, a value its item
    refuses, a new user without a password, an unknown role, a service, filter or channel whose plugin
    differs from the gateway's (remove it and add it again), a schedule the gateway does not have. A new
    service, filter, notification or channel, or a notification's new rule or delivery plugin, whose
    plugin the gateway does not have is `404`, and one needing the notification service while none runs
    is `409`, as the apply would answer, naming the entry. Admin only.

    Args:
        body (FleetDocument): A gateway's configuration (see `GET /edge/config/export`). An absent
            section is not managed; a present one is the whole truth for its kind.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FleetChanges]
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
    body: FleetDocument,
) -> FleetChanges:
    """Show what applying a configuration document would change

     Compares the document with the gateway and lists the changes applying it would make, in the order
    apply makes them, without writing anything. A section that is absent is not managed; a section that
    is present, even empty, is the whole truth for its kind: services, filters, notifications, channels
    and users (except `admin`) the gateway has and the section lacks are removed. Categories and
    schedules are never removed; within a category only the items listed are managed. Values are
    compared in their stored form (`True` and `true` are the same boolean). Secret values show as
    `****`. The gateway never resolves a secret reference: a document holding one is `400` naming it;
    clients replace references by their values first (the `edged config` command does, on the operator's
    machine). Also `400`: another document `version`, an item a category lacks, a value its item
    refuses, a new user without a password, an unknown role, a service, filter or channel whose plugin
    differs from the gateway's (remove it and add it again), a schedule the gateway does not have. A new
    service, filter, notification or channel, or a notification's new rule or delivery plugin, whose
    plugin the gateway does not have is `404`, and one needing the notification service while none runs
    is `409`, as the apply would answer, naming the entry. Admin only.

    Args:
        body (FleetDocument): A gateway's configuration (see `GET /edge/config/export`). An absent
            section is not managed; a present one is the whole truth for its kind.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FleetChanges
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: FleetDocument,
) -> Response[FleetChanges]:
    """Show what applying a configuration document would change

     Compares the document with the gateway and lists the changes applying it would make, in the order
    apply makes them, without writing anything. A section that is absent is not managed; a section that
    is present, even empty, is the whole truth for its kind: services, filters, notifications, channels
    and users (except `admin`) the gateway has and the section lacks are removed. Categories and
    schedules are never removed; within a category only the items listed are managed. Values are
    compared in their stored form (`True` and `true` are the same boolean). Secret values show as
    `****`. The gateway never resolves a secret reference: a document holding one is `400` naming it;
    clients replace references by their values first (the `edged config` command does, on the operator's
    machine). Also `400`: another document `version`, an item a category lacks, a value its item
    refuses, a new user without a password, an unknown role, a service, filter or channel whose plugin
    differs from the gateway's (remove it and add it again), a schedule the gateway does not have. A new
    service, filter, notification or channel, or a notification's new rule or delivery plugin, whose
    plugin the gateway does not have is `404`, and one needing the notification service while none runs
    is `409`, as the apply would answer, naming the entry. Admin only.

    Args:
        body (FleetDocument): A gateway's configuration (see `GET /edge/config/export`). An absent
            section is not managed; a present one is the whole truth for its kind.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FleetChanges]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: FleetDocument,
) -> FleetChanges:
    """Show what applying a configuration document would change

     Compares the document with the gateway and lists the changes applying it would make, in the order
    apply makes them, without writing anything. A section that is absent is not managed; a section that
    is present, even empty, is the whole truth for its kind: services, filters, notifications, channels
    and users (except `admin`) the gateway has and the section lacks are removed. Categories and
    schedules are never removed; within a category only the items listed are managed. Values are
    compared in their stored form (`True` and `true` are the same boolean). Secret values show as
    `****`. The gateway never resolves a secret reference: a document holding one is `400` naming it;
    clients replace references by their values first (the `edged config` command does, on the operator's
    machine). Also `400`: another document `version`, an item a category lacks, a value its item
    refuses, a new user without a password, an unknown role, a service, filter or channel whose plugin
    differs from the gateway's (remove it and add it again), a schedule the gateway does not have. A new
    service, filter, notification or channel, or a notification's new rule or delivery plugin, whose
    plugin the gateway does not have is `404`, and one needing the notification service while none runs
    is `409`, as the apply would answer, naming the entry. Admin only.

    Args:
        body (FleetDocument): A gateway's configuration (see `GET /edge/config/export`). An absent
            section is not managed; a present one is the whole truth for its kind.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FleetChanges
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
