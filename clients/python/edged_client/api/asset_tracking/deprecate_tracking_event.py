from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Message | None:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Message]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    service_name: str,
    asset_name: str,
    event_name: TrackingEventType,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
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
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            asset_name=asset_name,
            event_name=event_name,
            client=client,
        )
    ).parsed
