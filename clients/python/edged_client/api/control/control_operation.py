from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.control_operation_request import ControlOperationRequest
from ...models.control_results import ControlResults
from ...types import Response


def _get_kwargs(
    *,
    body: ControlOperationRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/control/operation",
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
    body: ControlOperationRequest,
) -> Response[ControlResults]:
    """Run an operation through the dispatcher

     Runs a named operation with parameters on the devices behind south services, through the running
    dispatcher service; destinations, ordering, rights, audit (CTLOP) and errors as for a control write.
    The OPC UA plugin runs an operation as a call of the method of that browse name under its
    `methodsParent` node, with parameters named as the method's input arguments; plugins without
    operations (Modbus) answer 400.

    Args:
        body (ControlOperationRequest):

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
    body: ControlOperationRequest,
) -> ControlResults:
    """Run an operation through the dispatcher

     Runs a named operation with parameters on the devices behind south services, through the running
    dispatcher service; destinations, ordering, rights, audit (CTLOP) and errors as for a control write.
    The OPC UA plugin runs an operation as a call of the method of that browse name under its
    `methodsParent` node, with parameters named as the method's input arguments; plugins without
    operations (Modbus) answer 400.

    Args:
        body (ControlOperationRequest):

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
    body: ControlOperationRequest,
) -> Response[ControlResults]:
    """Run an operation through the dispatcher

     Runs a named operation with parameters on the devices behind south services, through the running
    dispatcher service; destinations, ordering, rights, audit (CTLOP) and errors as for a control write.
    The OPC UA plugin runs an operation as a call of the method of that browse name under its
    `methodsParent` node, with parameters named as the method's input arguments; plugins without
    operations (Modbus) answer 400.

    Args:
        body (ControlOperationRequest):

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
    body: ControlOperationRequest,
) -> ControlResults:
    """Run an operation through the dispatcher

     Runs a named operation with parameters on the devices behind south services, through the running
    dispatcher service; destinations, ordering, rights, audit (CTLOP) and errors as for a control write.
    The OPC UA plugin runs an operation as a call of the method of that browse name under its
    `methodsParent` node, with parameters named as the method's input arguments; plugins without
    operations (Modbus) answer 400.

    Args:
        body (ControlOperationRequest):

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
