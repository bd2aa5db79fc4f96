from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.service_list import ServiceList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    type_: str | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if type_ is not None:
        params["type"] = type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/service",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> ServiceList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ServiceList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ServiceList]:
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
    *,
    client: Client,
    type_: str | None = None,
) -> Response[ServiceList]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceList]
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
    client: Client,
    type_: str | None = None,
) -> ServiceList:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceList
    """

    return sync_detailed(
        client=client,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    type_: str | None = None,
) -> Response[ServiceList]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceList]
    """

    kwargs = _get_kwargs(
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    type_: str | None = None,
) -> ServiceList:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceList
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
        )
    ).parsed
