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
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/asset/{code}/summary".format(
            code=quote(str(code), safe=""),
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
    *,
    client: Client,
) -> Response[ReadingSummary]:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ReadingSummary]
    """

    kwargs = _get_kwargs(
        code=code,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    code: str,
    *,
    client: Client,
) -> ReadingSummary:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ReadingSummary
    """

    return sync_detailed(
        code=code,
        client=client,
    ).parsed


async def asyncio_detailed(
    code: str,
    *,
    client: Client,
) -> Response[ReadingSummary]:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ReadingSummary]
    """

    kwargs = _get_kwargs(
        code=code,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    *,
    client: Client,
) -> ReadingSummary:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

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
            client=client,
        )
    ).parsed
