from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/metrics",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> str:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[str]:
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
) -> Response[str]:
    """Prometheus metrics

     Returns the gateway's metrics in the Prometheus text exposition format (version 0.0.4), for a
    Prometheus server to scrape: readings received, stored (per south service), discarded, dropped by
    filter pipelines and purged; ingest buffer depth and commit latency per south service; north lag
    (readings not yet sent), readings sent and set aside, and send errors per north service or task; the
    status of every service; API requests by operation and status, with their durations; storage errors
    and whether storage is available. Counters count since the gateway process started, except the
    readings counters, which are the gateway's statistics. During a storage outage the answer is still
    200, without the series read from storage. Who may scrape follows `ping`: no token is needed while
    `rest_api.allowPing` is true (the default); with `authentication=mandatory` and `allowPing` false a
    valid token of any role is required (401), which Prometheus sends with `authorization.credentials`.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[str]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> str:
    """Prometheus metrics

     Returns the gateway's metrics in the Prometheus text exposition format (version 0.0.4), for a
    Prometheus server to scrape: readings received, stored (per south service), discarded, dropped by
    filter pipelines and purged; ingest buffer depth and commit latency per south service; north lag
    (readings not yet sent), readings sent and set aside, and send errors per north service or task; the
    status of every service; API requests by operation and status, with their durations; storage errors
    and whether storage is available. Counters count since the gateway process started, except the
    readings counters, which are the gateway's statistics. During a storage outage the answer is still
    200, without the series read from storage. Who may scrape follows `ping`: no token is needed while
    `rest_api.allowPing` is true (the default); with `authentication=mandatory` and `allowPing` false a
    valid token of any role is required (401), which Prometheus sends with `authorization.credentials`.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        str
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[str]:
    """Prometheus metrics

     Returns the gateway's metrics in the Prometheus text exposition format (version 0.0.4), for a
    Prometheus server to scrape: readings received, stored (per south service), discarded, dropped by
    filter pipelines and purged; ingest buffer depth and commit latency per south service; north lag
    (readings not yet sent), readings sent and set aside, and send errors per north service or task; the
    status of every service; API requests by operation and status, with their durations; storage errors
    and whether storage is available. Counters count since the gateway process started, except the
    readings counters, which are the gateway's statistics. During a storage outage the answer is still
    200, without the series read from storage. Who may scrape follows `ping`: no token is needed while
    `rest_api.allowPing` is true (the default); with `authentication=mandatory` and `allowPing` false a
    valid token of any role is required (401), which Prometheus sends with `authorization.credentials`.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[str]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> str:
    """Prometheus metrics

     Returns the gateway's metrics in the Prometheus text exposition format (version 0.0.4), for a
    Prometheus server to scrape: readings received, stored (per south service), discarded, dropped by
    filter pipelines and purged; ingest buffer depth and commit latency per south service; north lag
    (readings not yet sent), readings sent and set aside, and send errors per north service or task; the
    status of every service; API requests by operation and status, with their durations; storage errors
    and whether storage is available. Counters count since the gateway process started, except the
    readings counters, which are the gateway's statistics. During a storage outage the answer is still
    200, without the series read from storage. Who may scrape follows `ping`: no token is needed while
    `rest_api.allowPing` is true (the default); with `authentication=mandatory` and `allowPing` false a
    valid token of any role is required (401), which Prometheus sends with `authorization.credentials`.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        str
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
