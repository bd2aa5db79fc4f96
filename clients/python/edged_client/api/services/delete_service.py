from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...types import Response


def _get_kwargs(
    service_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/service/{service_name}".format(
            service_name=quote(str(service_name), safe=""),
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
    *,
    client: Client,
) -> Response[Message]:
    """Delete a service

     Stops the service (its buffer is flushed, its plugin's state persisted, SRVUN audited) and removes
    its category, schedule, plugin data and its `<name>-Ingest` statistic; its buffered readings and the
    asset statistics stay, and its asset tracking events are kept as deprecated history. Deleting a
    north service also removes its stream position and the statistic named after it; the name of a north
    task deletes that task (schedule, category, stream position, statistic). The core and storage
    records (`Edge Core`, `Edge Storage`) cannot be deleted (400); an unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    *,
    client: Client,
) -> Message:
    """Delete a service

     Stops the service (its buffer is flushed, its plugin's state persisted, SRVUN audited) and removes
    its category, schedule, plugin data and its `<name>-Ingest` statistic; its buffered readings and the
    asset statistics stay, and its asset tracking events are kept as deprecated history. Deleting a
    north service also removes its stream position and the statistic named after it; the name of a north
    task deletes that task (schedule, category, stream position, statistic). The core and storage
    records (`Edge Core`, `Edge Storage`) cannot be deleted (400); an unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        service_name=service_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    *,
    client: Client,
) -> Response[Message]:
    """Delete a service

     Stops the service (its buffer is flushed, its plugin's state persisted, SRVUN audited) and removes
    its category, schedule, plugin data and its `<name>-Ingest` statistic; its buffered readings and the
    asset statistics stay, and its asset tracking events are kept as deprecated history. Deleting a
    north service also removes its stream position and the statistic named after it; the name of a north
    task deletes that task (schedule, category, stream position, statistic). The core and storage
    records (`Edge Core`, `Edge Storage`) cannot be deleted (400); an unknown service is 404.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    *,
    client: Client,
) -> Message:
    """Delete a service

     Stops the service (its buffer is flushed, its plugin's state persisted, SRVUN audited) and removes
    its category, schedule, plugin data and its `<name>-Ingest` statistic; its buffered readings and the
    asset statistics stay, and its asset tracking events are kept as deprecated history. Deleting a
    north service also removes its stream position and the statistic named after it; the name of a north
    task deletes that task (schedule, category, stream position, statistic). The core and storage
    records (`Edge Core`, `Edge Storage`) cannot be deleted (400); an unknown service is 404.

    Args:
        service_name (str):

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
            client=client,
        )
    ).parsed
