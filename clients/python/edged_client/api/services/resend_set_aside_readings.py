from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SetAsideCount | None:
    if response.status_code == 200:
        response_200 = SetAsideCount.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SetAsideCount]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetAsideSelection | Unset = UNSET,
) -> Response[Error | SetAsideCount]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideCount]
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
    client: AuthenticatedClient | Client,
    body: SetAsideSelection | Unset = UNSET,
) -> Error | SetAsideCount | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideCount
    """

    return sync_detailed(
        north_name=north_name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetAsideSelection | Unset = UNSET,
) -> Response[Error | SetAsideCount]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideCount]
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
    client: AuthenticatedClient | Client,
    body: SetAsideSelection | Unset = UNSET,
) -> Error | SetAsideCount | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideCount
    """

    return (
        await asyncio_detailed(
            north_name=north_name,
            client=client,
            body=body,
        )
    ).parsed
