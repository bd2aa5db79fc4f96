from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.control_results import ControlResults
from ...models.control_write_request import ControlWriteRequest
from ...types import Response


def _get_kwargs(
    *,
    body: ControlWriteRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/control/write",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> ControlResults:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ControlResults.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ControlResults]:
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
    body: ControlWriteRequest,
) -> Response[ControlResults]:
    """Write setpoints through the dispatcher

     Sets datapoints to values on the devices behind south services, through the running dispatcher
    service. `destination` is `service` (the service `name`), `asset` (the running service that ingests
    asset `name`, from asset tracking) or `broadcast` (every running service whose plugin writes; `name`
    is not used). Datapoints are named as the plugin's readings name them (Modbus coils and registers,
    OPC UA nodes), in the units of those readings. Requests to one service run one at a time, in arrival
    order. Only the `admin` and `control` roles may call it (403 for the other roles; 401 without a
    token, in every authentication mode). Every request, refused ones included, is audited CTLWR with
    the caller, the request and its outcome: one refused before the dispatcher saw it (no or a bad
    token, the caller's role, an invalid body, no dispatcher running) as FAILURE with outcome `refused`
    and the answer's message as `error`. Errors: 400 invalid request, or the service's plugin cannot
    write (the message says which); 404 unknown service or asset, or no service to broadcast to; 409 no
    dispatcher service runs, or the service is not running; 429 with Retry-After when the service's
    queue holds the dispatcher's `queueLength` requests already; 502 the device or its connection
    refused or failed the write (the message is the device's). A broadcast answers 200 when at least one
    service wrote, with each service's outcome in `results`.

    Args:
        body (ControlWriteRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ControlResults]
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
    body: ControlWriteRequest,
) -> ControlResults:
    """Write setpoints through the dispatcher

     Sets datapoints to values on the devices behind south services, through the running dispatcher
    service. `destination` is `service` (the service `name`), `asset` (the running service that ingests
    asset `name`, from asset tracking) or `broadcast` (every running service whose plugin writes; `name`
    is not used). Datapoints are named as the plugin's readings name them (Modbus coils and registers,
    OPC UA nodes), in the units of those readings. Requests to one service run one at a time, in arrival
    order. Only the `admin` and `control` roles may call it (403 for the other roles; 401 without a
    token, in every authentication mode). Every request, refused ones included, is audited CTLWR with
    the caller, the request and its outcome: one refused before the dispatcher saw it (no or a bad
    token, the caller's role, an invalid body, no dispatcher running) as FAILURE with outcome `refused`
    and the answer's message as `error`. Errors: 400 invalid request, or the service's plugin cannot
    write (the message says which); 404 unknown service or asset, or no service to broadcast to; 409 no
    dispatcher service runs, or the service is not running; 429 with Retry-After when the service's
    queue holds the dispatcher's `queueLength` requests already; 502 the device or its connection
    refused or failed the write (the message is the device's). A broadcast answers 200 when at least one
    service wrote, with each service's outcome in `results`.

    Args:
        body (ControlWriteRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ControlResults
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: ControlWriteRequest,
) -> Response[ControlResults]:
    """Write setpoints through the dispatcher

     Sets datapoints to values on the devices behind south services, through the running dispatcher
    service. `destination` is `service` (the service `name`), `asset` (the running service that ingests
    asset `name`, from asset tracking) or `broadcast` (every running service whose plugin writes; `name`
    is not used). Datapoints are named as the plugin's readings name them (Modbus coils and registers,
    OPC UA nodes), in the units of those readings. Requests to one service run one at a time, in arrival
    order. Only the `admin` and `control` roles may call it (403 for the other roles; 401 without a
    token, in every authentication mode). Every request, refused ones included, is audited CTLWR with
    the caller, the request and its outcome: one refused before the dispatcher saw it (no or a bad
    token, the caller's role, an invalid body, no dispatcher running) as FAILURE with outcome `refused`
    and the answer's message as `error`. Errors: 400 invalid request, or the service's plugin cannot
    write (the message says which); 404 unknown service or asset, or no service to broadcast to; 409 no
    dispatcher service runs, or the service is not running; 429 with Retry-After when the service's
    queue holds the dispatcher's `queueLength` requests already; 502 the device or its connection
    refused or failed the write (the message is the device's). A broadcast answers 200 when at least one
    service wrote, with each service's outcome in `results`.

    Args:
        body (ControlWriteRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ControlResults]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: ControlWriteRequest,
) -> ControlResults:
    """Write setpoints through the dispatcher

     Sets datapoints to values on the devices behind south services, through the running dispatcher
    service. `destination` is `service` (the service `name`), `asset` (the running service that ingests
    asset `name`, from asset tracking) or `broadcast` (every running service whose plugin writes; `name`
    is not used). Datapoints are named as the plugin's readings name them (Modbus coils and registers,
    OPC UA nodes), in the units of those readings. Requests to one service run one at a time, in arrival
    order. Only the `admin` and `control` roles may call it (403 for the other roles; 401 without a
    token, in every authentication mode). Every request, refused ones included, is audited CTLWR with
    the caller, the request and its outcome: one refused before the dispatcher saw it (no or a bad
    token, the caller's role, an invalid body, no dispatcher running) as FAILURE with outcome `refused`
    and the answer's message as `error`. Errors: 400 invalid request, or the service's plugin cannot
    write (the message says which); 404 unknown service or asset, or no service to broadcast to; 409 no
    dispatcher service runs, or the service is not running; 429 with Retry-After when the service's
    queue holds the dispatcher's `queueLength` requests already; 502 the device or its connection
    refused or failed the write (the message is the device's). A broadcast answers 200 when at least one
    service wrote, with each service's outcome in `results`.

    Args:
        body (ControlWriteRequest):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ControlResults
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
