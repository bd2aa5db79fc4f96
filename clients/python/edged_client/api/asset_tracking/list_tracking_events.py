from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.tracking_event_type import TrackingEventType
from ...models.tracking_list import TrackingList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    asset: str | Unset = UNSET,
    event: TrackingEventType | Unset = UNSET,
    service: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["asset"] = asset

    json_event: str | Unset = UNSET
    if not isinstance(event, Unset):
        json_event = event.value

    params["event"] = json_event

    params["service"] = service

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/track",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TrackingList | None:
    if response.status_code == 200:
        response_200 = TrackingList.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | TrackingList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    asset: str | Unset = UNSET,
    event: TrackingEventType | Unset = UNSET,
    service: str | Unset = UNSET,
) -> Response[Error | TrackingList]:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TrackingList]
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
    client: AuthenticatedClient | Client,
    asset: str | Unset = UNSET,
    event: TrackingEventType | Unset = UNSET,
    service: str | Unset = UNSET,
) -> Error | TrackingList | None:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TrackingList
    """

    return sync_detailed(
        client=client,
        asset=asset,
        event=event,
        service=service,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    asset: str | Unset = UNSET,
    event: TrackingEventType | Unset = UNSET,
    service: str | Unset = UNSET,
) -> Response[Error | TrackingList]:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TrackingList]
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
    client: AuthenticatedClient | Client,
    asset: str | Unset = UNSET,
    event: TrackingEventType | Unset = UNSET,
    service: str | Unset = UNSET,
) -> Error | TrackingList | None:
    """List asset tracking events

     Returns the tracked events in the order they were first tracked, optionally filtered; an omitted
    filter matches everything and no match is `{"track": []}`.

    Args:
        asset (str | Unset):  Example: sinusoid.
        event (TrackingEventType | Unset): `Ingest` (read by a south service), `Filter` (passed
            through a filter), `Egress` (sent by a north service or task). Example: Ingest.
        service (str | Unset):  Example: sine.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TrackingList
    """

    return (
        await asyncio_detailed(
            client=client,
            asset=asset,
            event=event,
            service=service,
        )
    ).parsed
