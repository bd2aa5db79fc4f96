from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.audit_entry import AuditEntry
from ...models.audit_entry_create import AuditEntryCreate
from ...types import Response


def _get_kwargs(
    *,
    body: AuditEntryCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/audit",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> AuditEntry:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = AuditEntry.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[AuditEntry]:
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
    body: AuditEntryCreate,
) -> Response[AuditEntry]:
    """Add an audit entry

     Raises an application-defined audit entry; the gateway sets the timestamp and stores the severity in
    upper case. An unknown source code or severity is 400.

    Args:
        body (AuditEntryCreate): An application-defined audit entry; the gateway sets the
            timestamp.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AuditEntry]
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
    body: AuditEntryCreate,
) -> AuditEntry:
    """Add an audit entry

     Raises an application-defined audit entry; the gateway sets the timestamp and stores the severity in
    upper case. An unknown source code or severity is 400.

    Args:
        body (AuditEntryCreate): An application-defined audit entry; the gateway sets the
            timestamp.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AuditEntry
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: AuditEntryCreate,
) -> Response[AuditEntry]:
    """Add an audit entry

     Raises an application-defined audit entry; the gateway sets the timestamp and stores the severity in
    upper case. An unknown source code or severity is 400.

    Args:
        body (AuditEntryCreate): An application-defined audit entry; the gateway sets the
            timestamp.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AuditEntry]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: AuditEntryCreate,
) -> AuditEntry:
    """Add an audit entry

     Raises an application-defined audit entry; the gateway sets the timestamp and stores the severity in
    upper case. An unknown source code or severity is 400.

    Args:
        body (AuditEntryCreate): An application-defined audit entry; the gateway sets the
            timestamp.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AuditEntry
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
