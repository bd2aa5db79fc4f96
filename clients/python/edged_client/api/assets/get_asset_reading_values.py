from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.reading_value import ReadingValue
from ...types import UNSET, Response


def _get_kwargs(
    code: str,
    reading: str,
    *,
    limit: int | None = None,
    skip: int | None = None,
    seconds: int | None = None,
    minutes: int | None = None,
    hours: int | None = None,
    previous: int | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
        params["skip"] = skip

    if seconds is not None:
        params["seconds"] = seconds

    if minutes is not None:
        params["minutes"] = minutes

    if hours is not None:
        params["hours"] = hours

    if previous is not None:
        params["previous"] = previous

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/asset/{code}/{reading}".format(
            code=quote(str(code), safe=""),
            reading=quote(str(reading), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> list[ReadingValue]:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = ReadingValue.from_dict(response_200_item_data)

            response_200.append(response_200_item)

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[list[ReadingValue]]:
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
    code: str,
    reading: str,
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    seconds: int | None = None,
    minutes: int | None = None,
    hours: int | None = None,
    previous: int | None = None,
) -> Response[list[ReadingValue]]:
    """Get the values of one reading key

     Returns, newest first, the timestamp and the value of one reading key: a page (`limit` default 20,
    `skip`) or a time window (`seconds`, `minutes` or `hours`, ending `previous` units ago). Combining
    two windows, or a window with `limit`/`skip`, or `previous` without a window, is 400. Readings
    without the key are left out (a JSON `null` value is a value); an unknown key or an empty window
    gives `[]`; an asset without buffered readings is 404, as for every read of one asset. The key
    `timestamp` cannot be listed this way (it would collide with the entry's own `timestamp`) and is
    400.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[list[ReadingValue]]
    """

    kwargs = _get_kwargs(
        code=code,
        reading=reading,
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
    reading: str,
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    seconds: int | None = None,
    minutes: int | None = None,
    hours: int | None = None,
    previous: int | None = None,
) -> list[ReadingValue]:
    """Get the values of one reading key

     Returns, newest first, the timestamp and the value of one reading key: a page (`limit` default 20,
    `skip`) or a time window (`seconds`, `minutes` or `hours`, ending `previous` units ago). Combining
    two windows, or a window with `limit`/`skip`, or `previous` without a window, is 400. Readings
    without the key are left out (a JSON `null` value is a value); an unknown key or an empty window
    gives `[]`; an asset without buffered readings is 404, as for every read of one asset. The key
    `timestamp` cannot be listed this way (it would collide with the entry's own `timestamp`) and is
    400.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        list[ReadingValue]
    """

    return sync_detailed(
        code=code,
        reading=reading,
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
    reading: str,
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    seconds: int | None = None,
    minutes: int | None = None,
    hours: int | None = None,
    previous: int | None = None,
) -> Response[list[ReadingValue]]:
    """Get the values of one reading key

     Returns, newest first, the timestamp and the value of one reading key: a page (`limit` default 20,
    `skip`) or a time window (`seconds`, `minutes` or `hours`, ending `previous` units ago). Combining
    two windows, or a window with `limit`/`skip`, or `previous` without a window, is 400. Readings
    without the key are left out (a JSON `null` value is a value); an unknown key or an empty window
    gives `[]`; an asset without buffered readings is 404, as for every read of one asset. The key
    `timestamp` cannot be listed this way (it would collide with the entry's own `timestamp`) and is
    400.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[list[ReadingValue]]
    """

    kwargs = _get_kwargs(
        code=code,
        reading=reading,
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
    reading: str,
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    seconds: int | None = None,
    minutes: int | None = None,
    hours: int | None = None,
    previous: int | None = None,
) -> list[ReadingValue]:
    """Get the values of one reading key

     Returns, newest first, the timestamp and the value of one reading key: a page (`limit` default 20,
    `skip`) or a time window (`seconds`, `minutes` or `hours`, ending `previous` units ago). Combining
    two windows, or a window with `limit`/`skip`, or `previous` without a window, is 400. Readings
    without the key are left out (a JSON `null` value is a value); an unknown key or an empty window
    gives `[]`; an asset without buffered readings is 404, as for every read of one asset. The key
    `timestamp` cannot be listed this way (it would collide with the entry's own `timestamp`) and is
    400.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        list[ReadingValue]
    """

    return (
        await asyncio_detailed(
            code=code,
            reading=reading,
            client=client,
            limit=limit,
            skip=skip,
            seconds=seconds,
            minutes=minutes,
            hours=hours,
            previous=previous,
        )
    ).parsed
