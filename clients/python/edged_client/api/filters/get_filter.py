from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.filter_instance import FilterInstance
from ...types import Response


def _get_kwargs(
    filter_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/filter/{filter_name}".format(
            filter_name=quote(str(filter_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> FilterInstance:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = FilterInstance.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[FilterInstance]:
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
    filter_name: str,
    *,
    client: Client,
) -> Response[FilterInstance]:
    """Get a filter instance

     Returns the filter instance with its plugin and users; 404 when there is none.

    Args:
        filter_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FilterInstance]
    """

    kwargs = _get_kwargs(
        filter_name=filter_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    filter_name: str,
    *,
    client: Client,
) -> FilterInstance:
    """Get a filter instance

     Returns the filter instance with its plugin and users; 404 when there is none.

    Args:
        filter_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FilterInstance
    """

    return sync_detailed(
        filter_name=filter_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    filter_name: str,
    *,
    client: Client,
) -> Response[FilterInstance]:
    """Get a filter instance

     Returns the filter instance with its plugin and users; 404 when there is none.

    Args:
        filter_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FilterInstance]
    """

    kwargs = _get_kwargs(
        filter_name=filter_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    filter_name: str,
    *,
    client: Client,
) -> FilterInstance:
    """Get a filter instance

     Returns the filter instance with its plugin and users; 404 when there is none.

    Args:
        filter_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FilterInstance
    """

    return (
        await asyncio_detailed(
            filter_name=filter_name,
            client=client,
        )
    ).parsed
