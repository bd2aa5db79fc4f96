from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.set_aside_count import SetAsideCount
from ...types import UNSET, Response, Unset


def _get_kwargs(
    north_name: str,
    *,
    id: list[int] | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if id is not None:
        json_id: list[int] | Unset = UNSET
        if not isinstance(id, Unset):
            json_id = id

        params["id"] = json_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/north/{north_name}/setaside".format(
            north_name=quote(str(north_name), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> SetAsideCount:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = SetAsideCount.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[SetAsideCount]:
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
    north_name: str,
    *,
    client: Client,
    id: list[int] | None = None,
) -> Response[SetAsideCount]:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    north_name: str,
    *,
    client: Client,
    id: list[int] | None = None,
) -> SetAsideCount:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        SetAsideCount
    """

    return sync_detailed(
        north_name=north_name,
        client=client,
        id=id,
    ).parsed


async def asyncio_detailed(
    north_name: str,
    *,
    client: Client,
    id: list[int] | None = None,
) -> Response[SetAsideCount]:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    north_name: str,
    *,
    client: Client,
    id: list[int] | None = None,
) -> SetAsideCount:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        SetAsideCount
    """

    return (
        await asyncio_detailed(
            north_name=north_name,
            client=client,
            id=id,
        )
    ).parsed
