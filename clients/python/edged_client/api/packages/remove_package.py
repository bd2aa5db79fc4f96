from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.message import Message
from ...types import Response


def _get_kwargs(
    name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/package/{name}".format(
            name=quote(str(name), safe=""),
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
    name: str,
    *,
    client: Client,
) -> Response[Message]:
    """Remove an installed package

     Removes the installed package and unregisters its plugin; PKGRM is audited. 404 when it is not
    installed; 409 while a service uses its plugin (delete the service first); 429 while it is being
    installed or updated. Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: Client,
) -> Message:
    """Remove an installed package

     Removes the installed package and unregisters its plugin; PKGRM is audited. 404 when it is not
    installed; 409 while a service uses its plugin (delete the service first); 429 while it is being
    installed or updated. Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return sync_detailed(
        name=name,
        client=client,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: Client,
) -> Response[Message]:
    """Remove an installed package

     Removes the installed package and unregisters its plugin; PKGRM is audited. 404 when it is not
    installed; 409 while a service uses its plugin (delete the service first); 429 while it is being
    installed or updated. Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Message]
    """

    kwargs = _get_kwargs(
        name=name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: Client,
) -> Message:
    """Remove an installed package

     Removes the installed package and unregisters its plugin; PKGRM is audited. 404 when it is not
    installed; 409 while a service uses its plugin (delete the service first); 429 while it is being
    installed or updated. Admins only, in every authentication mode: 401 without a token, 403 for every
    other role.

    Args:
        name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Message
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
        )
    ).parsed
