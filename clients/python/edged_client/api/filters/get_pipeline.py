from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Pipeline | None:
    if response.status_code == 200:
        response_200 = Pipeline.from_dict(response.json())

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Pipeline]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Pipeline]:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Pipeline]
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
    client: AuthenticatedClient | Client,
) -> Error | Pipeline | None:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Pipeline
    """

    return sync_detailed(
        service_name=service_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Pipeline]:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Pipeline]
    """

    kwargs = _get_kwargs(
        service_name=service_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | Pipeline | None:
    """Get a service's filter pipeline

     Returns the filter instances of the service's pipeline in the order they run; `[]` when it has none.
    404 for an unknown service.

    Args:
        service_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Pipeline
    """

    return (
        await asyncio_detailed(
            service_name=service_name,
            client=client,
        )
    ).parsed
