from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.service_list import ServiceList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    type_: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["type"] = type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ServiceList | None:
    if response.status_code == 200:
        response_200 = ServiceList.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ServiceList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    type_: str | Unset = UNSET,
) -> Response[Error | ServiceList]:
    """List registered services

     Returns the core (record `Edge Core`, type `Core`), the storage layer (`Edge Storage`, type
    `Storage`) and every registered service (running, or configured but disabled), optionally only those
    of one type. Services run inside the core: a started one has address `localhost`, protocol `http`
    and the API's port as `management_port`; a stopped one has `address` and `protocol` "",
    `service_port` null and status `shutdown`. Every record, storage included, has the API's port as
    `management_port`: the core manages every service, running or not. No match is `{"services": []}`.

    Args:
        type_ (str | Unset):  Example: Southbound.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceList]
    """

    kwargs = _get_kwargs(
        type_=type_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    type_: str | Unset = UNSET,
) -> Error | ServiceList | None:
    """List registered services

     Returns the core (record `Edge Core`, type `Core`), the storage layer (`Edge Storage`, type
    `Storage`) and every registered service (running, or configured but disabled), optionally only those
    of one type. Services run inside the core: a started one has address `localhost`, protocol `http`
    and the API's port as `management_port`; a stopped one has `address` and `protocol` "",
    `service_port` null and status `shutdown`. Every record, storage included, has the API's port as
    `management_port`: the core manages every service, running or not. No match is `{"services": []}`.

    Args:
        type_ (str | Unset):  Example: Southbound.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceList
    """

    return sync_detailed(
        client=client,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    type_: str | Unset = UNSET,
) -> Response[Error | ServiceList]:
    """List registered services

     Returns the core (record `Edge Core`, type `Core`), the storage layer (`Edge Storage`, type
    `Storage`) and every registered service (running, or configured but disabled), optionally only those
    of one type. Services run inside the core: a started one has address `localhost`, protocol `http`
    and the API's port as `management_port`; a stopped one has `address` and `protocol` "",
    `service_port` null and status `shutdown`. Every record, storage included, has the API's port as
    `management_port`: the core manages every service, running or not. No match is `{"services": []}`.

    Args:
        type_ (str | Unset):  Example: Southbound.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceList]
    """

    kwargs = _get_kwargs(
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    type_: str | Unset = UNSET,
) -> Error | ServiceList | None:
    """List registered services

     Returns the core (record `Edge Core`, type `Core`), the storage layer (`Edge Storage`, type
    `Storage`) and every registered service (running, or configured but disabled), optionally only those
    of one type. Services run inside the core: a started one has address `localhost`, protocol `http`
    and the API's port as `management_port`; a stopped one has `address` and `protocol` "",
    `service_port` null and status `shutdown`. Every record, storage included, has the API's port as
    `management_port`: the core manages every service, running or not. No match is `{"services": []}`.

    Args:
        type_ (str | Unset):  Example: Southbound.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceList
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
        )
    ).parsed
