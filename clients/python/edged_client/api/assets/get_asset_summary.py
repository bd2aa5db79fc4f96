from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ReadingSummary | None:
    if response.status_code == 200:
        response_200 = ReadingSummary.from_dict(response.json())

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
) -> Response[Error | ReadingSummary]:
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
) -> Response[Error | ReadingSummary]:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReadingSummary]
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
    client: AuthenticatedClient | Client,
) -> Error | ReadingSummary | None:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReadingSummary
    """

    return sync_detailed(
        code=code,
        client=client,
    ).parsed


async def asyncio_detailed(
    code: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | ReadingSummary]:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReadingSummary]
    """

    kwargs = _get_kwargs(
        code=code,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | ReadingSummary | None:
    """Summarise every reading key of an asset

     Returns, for every reading key of the asset with at least one numeric value, its minimum, maximum
    and average over all buffered readings, as `GET /edge/asset/{code}/{reading}/summary` does for one
    key; keys without numeric values are left out (`{}` when no key has one). Takes no query parameters.
    An unknown asset is 404. A reading key named `summary` cannot be listed through
    `/edge/asset/{code}/{reading}`; its summary is here.

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReadingSummary
    """

    return (
        await asyncio_detailed(
            code=code,
            client=client,
        )
    ).parsed
