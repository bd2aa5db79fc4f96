from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/shutdown",
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
    *,
    client: Client,
) -> Response[Message]:
    """Shut the gateway down

     Answers first, then shuts down cleanly: the API stops taking requests, running tasks are cancelled
    (recorded `Cancelled`, reason `the gateway shut down`; north tasks save their stream positions),
    services stop with their buffers flushed to storage and their plugins' state persisted, an FSTOP
    audit entry is written, storage is closed and the process exits with status 0. Nothing committed is
    lost. A second shutdown or restart request while one is in progress answers 200 with the message of
    the one in progress. Needs the token of an `admin`, `user` or `control` session in every
    authentication mode (401 without one, 403 for the other roles).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> Message:
    """Shut the gateway down

     Answers first, then shuts down cleanly: the API stops taking requests, running tasks are cancelled
    (recorded `Cancelled`, reason `the gateway shut down`; north tasks save their stream positions),
    services stop with their buffers flushed to storage and their plugins' state persisted, an FSTOP
    audit entry is written, storage is closed and the process exits with status 0. Nothing committed is
    lost. A second shutdown or restart request while one is in progress answers 200 with the message of
    the one in progress. Needs the token of an `admin`, `user` or `control` session in every
    authentication mode (401 without one, 403 for the other roles).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[Message]:
    """Shut the gateway down

     Answers first, then shuts down cleanly: the API stops taking requests, running tasks are cancelled
    (recorded `Cancelled`, reason `the gateway shut down`; north tasks save their stream positions),
    services stop with their buffers flushed to storage and their plugins' state persisted, an FSTOP
    audit entry is written, storage is closed and the process exits with status 0. Nothing committed is
    lost. A second shutdown or restart request while one is in progress answers 200 with the message of
    the one in progress. Needs the token of an `admin`, `user` or `control` session in every
    authentication mode (401 without one, 403 for the other roles).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> Message:
    """Shut the gateway down

     Answers first, then shuts down cleanly: the API stops taking requests, running tasks are cancelled
    (recorded `Cancelled`, reason `the gateway shut down`; north tasks save their stream positions),
    services stop with their buffers flushed to storage and their plugins' state persisted, an FSTOP
    audit entry is written, storage is closed and the process exits with status 0. Nothing committed is
    lost. A second shutdown or restart request while one is in progress answers 200 with the message of
    the one in progress. Needs the token of an `admin`, `user` or `control` session in every
    authentication mode (401 without one, 403 for the other roles).

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
