from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.tracking_event_type import TrackingEventType
from ...models.tracking_list import TrackingList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    asset: str | None = None,
    event: TrackingEventType | None = None,
    service: str | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if asset is not None:
        params["asset"] = asset

    if event is not None:
        json_event: str | Unset = UNSET
        if not isinstance(event, Unset):
            json_event = event.value

        params["event"] = json_event

    if service is not None:
        params["service"] = service

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/track",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> TrackingList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = TrackingList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[TrackingList]:
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
    asset: str | None = None,
    event: TrackingEventType | None = None,
    service: str | None = None,
) -> Response[TrackingList]:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TrackingList]
    """

    kwargs = _get_kwargs(
        asset=asset,
        event=event,
        service=service,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    asset: str | None = None,
    event: TrackingEventType | None = None,
    service: str | None = None,
) -> TrackingList:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TrackingList
    """

    return sync_detailed(
        client=client,
        asset=asset,
        event=event,
        service=service,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    asset: str | None = None,
    event: TrackingEventType | None = None,
    service: str | None = None,
) -> Response[TrackingList]:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[TrackingList]
    """

    kwargs = _get_kwargs(
        asset=asset,
        event=event,
        service=service,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    asset: str | None = None,
    event: TrackingEventType | None = None,
    service: str | None = None,
) -> TrackingList:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        TrackingList
    """

    return (
        await asyncio_detailed(
            client=client,
            asset=asset,
            event=event,
            service=service,
        )
    ).parsed
