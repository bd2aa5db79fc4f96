from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.reading_summary import ReadingSummary
from ...types import Response


def _get_kwargs(
    code: str,
    reading: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/asset/{code}/{reading}/summary".format(
            code=quote(str(code), safe=""),
            reading=quote(str(reading), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> ReadingSummary:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ReadingSummary.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ReadingSummary]:
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
) -> Response[ReadingSummary]:
    """Summarise one reading key

     Returns minimum, maximum and average of the numeric values of one reading key over all buffered
    readings of the asset; non-numeric values are ignored. Takes no query parameters. An unknown asset,
    or a key without numeric values, is 404.

    Args:
        code (str):
        reading (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ReadingSummary]
    """

    kwargs = _get_kwargs(
        code=code,
        reading=reading,
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
) -> ReadingSummary:
    """Summarise one reading key

     Returns minimum, maximum and average of the numeric values of one reading key over all buffered
    readings of the asset; non-numeric values are ignored. Takes no query parameters. An unknown asset,
    or a key without numeric values, is 404.

    Args:
        code (str):
        reading (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ReadingSummary
    """

    return sync_detailed(
        code=code,
        reading=reading,
        client=client,
    ).parsed


async def asyncio_detailed(
    code: str,
    reading: str,
    *,
    client: Client,
) -> Response[ReadingSummary]:
    """Summarise one reading key

     Returns minimum, maximum and average of the numeric values of one reading key over all buffered
    readings of the asset; non-numeric values are ignored. Takes no query parameters. An unknown asset,
    or a key without numeric values, is 404.

    Args:
        code (str):
        reading (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ReadingSummary]
    """

    kwargs = _get_kwargs(
        code=code,
        reading=reading,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    reading: str,
    *,
    client: Client,
) -> ReadingSummary:
    """Summarise one reading key

     Returns minimum, maximum and average of the numeric values of one reading key over all buffered
    readings of the asset; non-numeric values are ignored. Takes no query parameters. An unknown asset,
    or a key without numeric values, is 404.

    Args:
        code (str):
        reading (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ReadingSummary
    """

    return (
        await asyncio_detailed(
            code=code,
            reading=reading,
            client=client,
        )
    ).parsed
