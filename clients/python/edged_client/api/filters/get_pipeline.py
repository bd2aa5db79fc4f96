from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.pipeline import Pipeline
from ...types import Response


def _get_kwargs(
    service_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/filter/{service_name}/pipeline".format(
            service_name=quote(str(service_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Pipeline:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Pipeline.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Pipeline]:
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
    service_name: str,
    *,
    client: Client,
) -> Response[Pipeline]:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Pipeline]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_name: str,
    *,
    client: Client,
) -> Pipeline:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Pipeline
    """

    return sync_detailed(
        service_name=service_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    *,
    client: Client,
) -> Response[Pipeline]:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Pipeline]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    *,
    client: Client,
) -> Pipeline:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Pipeline
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            client=client,
        )
    ).parsed
