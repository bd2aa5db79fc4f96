from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.north_list import NorthList
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/north",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> NorthList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = NorthList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[NorthList]:
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
) -> Response[NorthList]:
    """List north services and tasks

     Returns every north service and north task, sorted by name, with its plugin, readings sent (the
    statistic named after it), status and schedule. A north service's status is that of its runtime
    (`shutdown` while disabled); a task's is `running` while an execution is in progress and `shutdown`
    between executions.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[NorthList]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> NorthList:
    """List north services and tasks

     Returns every north service and north task, sorted by name, with its plugin, readings sent (the
    statistic named after it), status and schedule. A north service's status is that of its runtime
    (`shutdown` while disabled); a task's is `running` while an execution is in progress and `shutdown`
    between executions.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        NorthList
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[NorthList]:
    """List north services and tasks

     Returns every north service and north task, sorted by name, with its plugin, readings sent (the
    statistic named after it), status and schedule. A north service's status is that of its runtime
    (`shutdown` while disabled); a task's is `running` while an execution is in progress and `shutdown`
    between executions.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[NorthList]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> NorthList:
    """List north services and tasks

     Returns every north service and north task, sorted by name, with its plugin, readings sent (the
    statistic named after it), status and schedule. A north service's status is that of its runtime
    (`shutdown` while disabled); a task's is `running` while an execution is in progress and `shutdown`
    between executions.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        NorthList
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
