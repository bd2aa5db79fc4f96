from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.get_asset_reading_series_group import GetAssetReadingSeriesGroup
from ...models.series_entry import SeriesEntry
from ...types import UNSET, Response, Unset


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
    group: GetAssetReadingSeriesGroup | None = None,
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

    if group is not None:
        json_group: str | Unset = UNSET
        if not isinstance(group, Unset):
            json_group = group.value

        params["group"] = json_group

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/asset/{code}/{reading}/series".format(
            code=quote(str(code), safe=""),
            reading=quote(str(reading), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> list[SeriesEntry]:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = SeriesEntry.from_dict(response_200_item_data)

            response_200.append(response_200_item)

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[list[SeriesEntry]]:
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
    group: GetAssetReadingSeriesGroup | None = None,
) -> Response[list[SeriesEntry]]:
    """Get a time series of one reading key

     Groups the numeric values of one reading key into buckets of one second (or the unit given by
    `group`) and returns minimum, maximum and average per bucket, newest first; non-numeric values are
    ignored. `limit`/`skip` count buckets; the time window rules of the readings call apply (conflicts
    are 400). An unknown key or an empty window gives `[]`; an asset without buffered readings is 404,
    as for every read of one asset.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):
        group (GetAssetReadingSeriesGroup | Unset):  Default: GetAssetReadingSeriesGroup.SECONDS.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[list[SeriesEntry]]
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
        group=group,
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
    group: GetAssetReadingSeriesGroup | None = None,
) -> list[SeriesEntry]:
    """Get a time series of one reading key

     Groups the numeric values of one reading key into buckets of one second (or the unit given by
    `group`) and returns minimum, maximum and average per bucket, newest first; non-numeric values are
    ignored. `limit`/`skip` count buckets; the time window rules of the readings call apply (conflicts
    are 400). An unknown key or an empty window gives `[]`; an asset without buffered readings is 404,
    as for every read of one asset.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):
        group (GetAssetReadingSeriesGroup | Unset):  Default: GetAssetReadingSeriesGroup.SECONDS.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        list[SeriesEntry]
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
        group=group,
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
    group: GetAssetReadingSeriesGroup | None = None,
) -> Response[list[SeriesEntry]]:
    """Get a time series of one reading key

     Groups the numeric values of one reading key into buckets of one second (or the unit given by
    `group`) and returns minimum, maximum and average per bucket, newest first; non-numeric values are
    ignored. `limit`/`skip` count buckets; the time window rules of the readings call apply (conflicts
    are 400). An unknown key or an empty window gives `[]`; an asset without buffered readings is 404,
    as for every read of one asset.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):
        group (GetAssetReadingSeriesGroup | Unset):  Default: GetAssetReadingSeriesGroup.SECONDS.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[list[SeriesEntry]]
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
        group=group,
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
    group: GetAssetReadingSeriesGroup | None = None,
) -> list[SeriesEntry]:
    """Get a time series of one reading key

     Groups the numeric values of one reading key into buckets of one second (or the unit given by
    `group`) and returns minimum, maximum and average per bucket, newest first; non-numeric values are
    ignored. `limit`/`skip` count buckets; the time window rules of the readings call apply (conflicts
    are 400). An unknown key or an empty window gives `[]`; an asset without buffered readings is 404,
    as for every read of one asset.

    Args:
        code (str):
        reading (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        seconds (int | Unset):
        minutes (int | Unset):
        hours (int | Unset):
        previous (int | Unset):
        group (GetAssetReadingSeriesGroup | Unset):  Default: GetAssetReadingSeriesGroup.SECONDS.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        list[SeriesEntry]
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
            group=group,
        )
    ).parsed
