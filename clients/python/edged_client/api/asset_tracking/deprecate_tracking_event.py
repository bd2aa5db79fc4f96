from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...models.tracking_event_type import TrackingEventType
from ...types import Response


def _get_kwargs(
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/track/service/{service_name}/asset/{asset_name}/event/{event_name}".format(
            service_name=quote(str(service_name), safe=""),
            asset_name=quote(str(asset_name), safe=""),
            event_name=quote(str(event_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Message:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Message]:
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
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
    *,
    client: Client,
) -> Response[Message]:
    """Deprecate an asset tracking event

     Marks the event deprecated (sets `deprecatedTimestamp`), hiding an old plugin association, and
    writes an ASTDP audit entry. The deprecation ends by itself when the asset is tracked again. Unknown
    event: 404; already deprecated: 409.

    Args:
        service_name (str):
        asset_name (str):
        event_name (TrackingEventType): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        asset_name=asset_name,
        event_name=event_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
    *,
    client: Client,
) -> Message:
    """Deprecate an asset tracking event

     Marks the event deprecated (sets `deprecatedTimestamp`), hiding an old plugin association, and
    writes an ASTDP audit entry. The deprecation ends by itself when the asset is tracked again. Unknown
    event: 404; already deprecated: 409.

    Args:
        service_name (str):
        asset_name (str):
        event_name (TrackingEventType): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        service_name=service_name,
        asset_name=asset_name,
        event_name=event_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
    *,
    client: Client,
) -> Response[Message]:
    """Deprecate an asset tracking event

     Marks the event deprecated (sets `deprecatedTimestamp`), hiding an old plugin association, and
    writes an ASTDP audit entry. The deprecation ends by itself when the asset is tracked again. Unknown
    event: 404; already deprecated: 409.

    Args:
        service_name (str):
        asset_name (str):
        event_name (TrackingEventType): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
        asset_name=asset_name,
        event_name=event_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
    *,
    client: Client,
) -> Message:
    """Deprecate an asset tracking event

     Marks the event deprecated (sets `deprecatedTimestamp`), hiding an old plugin association, and
    writes an ASTDP audit entry. The deprecation ends by itself when the asset is tracked again. Unknown
    event: 404; already deprecated: 409.

    Args:
        service_name (str):
        asset_name (str):
        event_name (TrackingEventType): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            asset_name=asset_name,
            event_name=event_name,
            client=client,
        )
    ).parsed
