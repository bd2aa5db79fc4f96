from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.set_aside_count import SetAsideCount
from ...models.set_aside_selection import SetAsideSelection
from ...types import UNSET, Response, Unset


def _get_kwargs(
    north_name: str,
    *,
    body: SetAsideSelection | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/north/{north_name}/setaside/resend".format(
            north_name=quote(str(north_name), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    body: SetAsideSelection | Unset = UNSET,
) -> Response[SetAsideCount]:
    """Send readings a north service or task set aside again

     Marks the readings set aside with the entry ids in `ids`, or all of them when `ids` is absent or
    empty, to be sent again, and answers how many are marked (ids that are not set-aside readings of
    this north service or task are ignored). A running north service sends them before its next block of
    the stream; a north task at its next run. A reading the destination accepts is removed from the set-
    aside readings and counted in the statistic of readings sent; one it refuses for good again stays
    set aside, no longer marked, with the new refusal as `reason` (and a new `NHREJ` entry). An unknown
    north service or task is 404.

    Args:
        north_name (str):
        body (SetAsideSelection | Unset): Which set-aside readings to send again; without `ids`,
            or with none, every one.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    north_name: str,
    *,
    client: Client,
    body: SetAsideSelection | Unset = UNSET,
) -> SetAsideCount:
    """Send readings a north service or task set aside again

     Marks the readings set aside with the entry ids in `ids`, or all of them when `ids` is absent or
    empty, to be sent again, and answers how many are marked (ids that are not set-aside readings of
    this north service or task are ignored). A running north service sends them before its next block of
    the stream; a north task at its next run. A reading the destination accepts is removed from the set-
    aside readings and counted in the statistic of readings sent; one it refuses for good again stays
    set aside, no longer marked, with the new refusal as `reason` (and a new `NHREJ` entry). An unknown
    north service or task is 404.

    Args:
        north_name (str):
        body (SetAsideSelection | Unset): Which set-aside readings to send again; without `ids`,
            or with none, every one.

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
        body=body,
    ).parsed


async def asyncio_detailed(
    north_name: str,
    *,
    client: Client,
    body: SetAsideSelection | Unset = UNSET,
) -> Response[SetAsideCount]:
    """Send readings a north service or task set aside again

     Marks the readings set aside with the entry ids in `ids`, or all of them when `ids` is absent or
    empty, to be sent again, and answers how many are marked (ids that are not set-aside readings of
    this north service or task are ignored). A running north service sends them before its next block of
    the stream; a north task at its next run. A reading the destination accepts is removed from the set-
    aside readings and counted in the statistic of readings sent; one it refuses for good again stays
    set aside, no longer marked, with the new refusal as `reason` (and a new `NHREJ` entry). An unknown
    north service or task is 404.

    Args:
        north_name (str):
        body (SetAsideSelection | Unset): Which set-aside readings to send again; without `ids`,
            or with none, every one.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    north_name: str,
    *,
    client: Client,
    body: SetAsideSelection | Unset = UNSET,
) -> SetAsideCount:
    """Send readings a north service or task set aside again

     Marks the readings set aside with the entry ids in `ids`, or all of them when `ids` is absent or
    empty, to be sent again, and answers how many are marked (ids that are not set-aside readings of
    this north service or task are ignored). A running north service sends them before its next block of
    the stream; a north task at its next run. A reading the destination accepts is removed from the set-
    aside readings and counted in the statistic of readings sent; one it refuses for good again stays
    set aside, no longer marked, with the new refusal as `reason` (and a new `NHREJ` entry). An unknown
    north service or task is 404.

    Args:
        north_name (str):
        body (SetAsideSelection | Unset): Which set-aside readings to send again; without `ids`,
            or with none, every one.

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
            body=body,
        )
    ).parsed
