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
        "url": "/edge/config/apply",
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
    """Make the gateway hold a configuration document

     Makes the changes `POST /edge/config/plan` lists, in that order, through the same operations as the
    individual calls (so each writes its usual audit entries: CONCH, SCHCH, user and service entries),
    and answers the changes made. Only differences are written: applying the same document again answers
    no changes and writes no audit entry. Applies run one at a time. The document is checked completely
    before anything is written (the errors of plan: `400`, and `404` or `409` for a plugin the gateway
    lacks); a write that fails then (a service that cannot start is not a failure) answers its error,
    the changes before it stay, and applying again continues from there. A user's password is used only
    to create the user; existing users' passwords are never changed. Admin only.

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
    """Make the gateway hold a configuration document

     Makes the changes `POST /edge/config/plan` lists, in that order, through the same operations as the
    individual calls (so each writes its usual audit entries: CONCH, SCHCH, user and service entries),
    and answers the changes made. Only differences are written: applying the same document again answers
    no changes and writes no audit entry. Applies run one at a time. The document is checked completely
    before anything is written (the errors of plan: `400`, and `404` or `409` for a plugin the gateway
    lacks); a write that fails then (a service that cannot start is not a failure) answers its error,
    the changes before it stay, and applying again continues from there. A user's password is used only
    to create the user; existing users' passwords are never changed. Admin only.

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
    """Make the gateway hold a configuration document

     Makes the changes `POST /edge/config/plan` lists, in that order, through the same operations as the
    individual calls (so each writes its usual audit entries: CONCH, SCHCH, user and service entries),
    and answers the changes made. Only differences are written: applying the same document again answers
    no changes and writes no audit entry. Applies run one at a time. The document is checked completely
    before anything is written (the errors of plan: `400`, and `404` or `409` for a plugin the gateway
    lacks); a write that fails then (a service that cannot start is not a failure) answers its error,
    the changes before it stay, and applying again continues from there. A user's password is used only
    to create the user; existing users' passwords are never changed. Admin only.

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
    """Make the gateway hold a configuration document

     Makes the changes `POST /edge/config/plan` lists, in that order, through the same operations as the
    individual calls (so each writes its usual audit entries: CONCH, SCHCH, user and service entries),
    and answers the changes made. Only differences are written: applying the same document again answers
    no changes and writes no audit entry. Applies run one at a time. The document is checked completely
    before anything is written (the errors of plan: `400`, and `404` or `409` for a plugin the gateway
    lacks); a write that fails then (a service that cannot start is not a failure) answers its error,
    the changes before it stay, and applying again continues from there. A user's password is used only
    to create the user; existing users' passwords are never changed. Admin only.

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
