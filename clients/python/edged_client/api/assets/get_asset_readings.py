from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.reading import Reading
from ...types import UNSET, Response, Unset


def _get_kwargs(
    code: str,
    *,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    seconds: int | Unset = UNSET,
    minutes: int | Unset = UNSET,
    hours: int | Unset = UNSET,
    previous: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["skip"] = skip

    params["seconds"] = seconds

    params["minutes"] = minutes

    params["hours"] = hours

    params["previous"] = previous

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/asset/{code}".format(
            code=quote(str(code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | list[Reading] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = Reading.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Error | list[Reading]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    code: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    seconds: int | Unset = UNSET,
    minutes: int | Unset = UNSET,
    hours: int | Unset = UNSET,
    previous: int | Unset = UNSET,
) -> Response[Error | list[Reading]]:
    """Get an asset's readings

     Returns readings newest first: a page (`limit` default 20, `skip`) or a time window (`seconds`,
    `minutes` or `hours`, ending `previous` units ago). Combining two windows, or a window with
    `limit`/`skip`, or `previous` without a window, is 400. An unknown asset or an empty window gives
    `[]`.

    Args:
        code (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Reading]]
    """

    kwargs = _get_kwargs(
        code=code,
        limit=limit,
        skip=skip,
        seconds=seconds,
        minutes=minutes,
        hours=hours,
        previous=previous,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    code: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    seconds: int | Unset = UNSET,
    minutes: int | Unset = UNSET,
    hours: int | Unset = UNSET,
    previous: int | Unset = UNSET,
) -> Error | list[Reading] | None:
    """Get an asset's readings

     Returns readings newest first: a page (`limit` default 20, `skip`) or a time window (`seconds`,
    `minutes` or `hours`, ending `previous` units ago). Combining two windows, or a window with
    `limit`/`skip`, or `previous` without a window, is 400. An unknown asset or an empty window gives
    `[]`.

    Args:
        code (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Reading]
    """

    return sync_detailed(
        code=code,
        client=client,
        limit=limit,
        skip=skip,
        seconds=seconds,
        minutes=minutes,
        hours=hours,
        previous=previous,
    ).parsed


async def asyncio_detailed(
    code: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    seconds: int | Unset = UNSET,
    minutes: int | Unset = UNSET,
    hours: int | Unset = UNSET,
    previous: int | Unset = UNSET,
) -> Response[Error | list[Reading]]:
    """Get an asset's readings

     Returns readings newest first: a page (`limit` default 20, `skip`) or a time window (`seconds`,
    `minutes` or `hours`, ending `previous` units ago). Combining two windows, or a window with
    `limit`/`skip`, or `previous` without a window, is 400. An unknown asset or an empty window gives
    `[]`.

    Args:
        code (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Reading]]
    """

    kwargs = _get_kwargs(
        code=code,
        limit=limit,
        skip=skip,
        seconds=seconds,
        minutes=minutes,
        hours=hours,
        previous=previous,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    seconds: int | Unset = UNSET,
    minutes: int | Unset = UNSET,
    hours: int | Unset = UNSET,
    previous: int | Unset = UNSET,
) -> Error | list[Reading] | None:
    """Get an asset's readings

     Returns readings newest first: a page (`limit` default 20, `skip`) or a time window (`seconds`,
    `minutes` or `hours`, ending `previous` units ago). Combining two windows, or a window with
    `limit`/`skip`, or `previous` without a window, is 400. An unknown asset or an empty window gives
    `[]`.

    Args:
        code (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Reading]
    """

    return (
        await asyncio_detailed(
            code=code,
            client=client,
            limit=limit,
            skip=skip,
            seconds=seconds,
            minutes=minutes,
            hours=hours,
            previous=previous,
        )
    ).parsed
