from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...models.own_user_update import OwnUserUpdate
from ...types import Response


def _get_kwargs(
    *,
    body: OwnUserUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/user",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    body: OwnUserUpdate,
) -> Response[Message]:
    """Change your own real name

     Sets the real name of the user the token belongs to (a request without a token has no user: 401).
    Writes a USRCH audit entry.

    Args:
        body (OwnUserUpdate):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
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
    body: OwnUserUpdate,
) -> Message:
    """Change your own real name

     Sets the real name of the user the token belongs to (a request without a token has no user: 401).
    Writes a USRCH audit entry.

    Args:
        body (OwnUserUpdate):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: OwnUserUpdate,
) -> Response[Message]:
    """Change your own real name

     Sets the real name of the user the token belongs to (a request without a token has no user: 401).
    Writes a USRCH audit entry.

    Args:
        body (OwnUserUpdate):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: OwnUserUpdate,
) -> Message:
    """Change your own real name

     Sets the real name of the user the token belongs to (a request without a token has no user: 401).
    Writes a USRCH audit entry.

    Args:
        body (OwnUserUpdate):

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
            body=body,
        )
    ).parsed
