from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.message import Message
from ...types import Response


def _get_kwargs(
    filter_name: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/filter/{filter_name}".format(
            filter_name=quote(str(filter_name), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Message | None:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Message]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    filter_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
    """Delete a filter instance

     Deletes the filter instance with its category and the state it persisted in any service. 404 when
    there is none; 409 while a pipeline holds it (remove it from the pipeline first).

    Args:
        filter_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
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
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
    """Delete a filter instance

     Deletes the filter instance with its category and the state it persisted in any service. 404 when
    there is none; 409 while a pipeline holds it (remove it from the pipeline first).

    Args:
        filter_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return sync_detailed(
        filter_name=filter_name,
        client=client,
    ).parsed


async def asyncio_detailed(
    filter_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Message]:
    """Delete a filter instance

     Deletes the filter instance with its category and the state it persisted in any service. 404 when
    there is none; 409 while a pipeline holds it (remove it from the pipeline first).

    Args:
        filter_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Message]
    """

    kwargs = _get_kwargs(
        filter_name=filter_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    filter_name: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | Message | None:
    """Delete a filter instance

     Deletes the filter instance with its category and the state it persisted in any service. 404 when
    there is none; 409 while a pipeline holds it (remove it from the pipeline first).

    Args:
        filter_name (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Message
    """

    return (
        await asyncio_detailed(
            filter_name=filter_name,
            client=client,
        )
    ).parsed
