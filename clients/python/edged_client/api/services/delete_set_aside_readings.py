from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_aside_count import SetAsideCount
from ...types import UNSET, Response, Unset


def _get_kwargs(
    north_name: str,
    *,
    id: list[int] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_id: list[int] | Unset = UNSET
    if not isinstance(id, Unset):
        json_id = id

    params["id"] = json_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/north/{north_name}/setaside".format(
            north_name=quote(str(north_name), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SetAsideCount | None:
    if response.status_code == 200:
        response_200 = SetAsideCount.from_dict(response.json())

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
) -> Response[Error | SetAsideCount]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    id: list[int] | Unset = UNSET,
) -> Response[Error | SetAsideCount]:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    id: list[int] | Unset = UNSET,
) -> Error | SetAsideCount | None:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideCount
    """

    return sync_detailed(
        north_name=north_name,
        client=client,
        id=id,
    ).parsed


async def asyncio_detailed(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    id: list[int] | Unset = UNSET,
) -> Response[Error | SetAsideCount]:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideCount]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    id: list[int] | Unset = UNSET,
) -> Error | SetAsideCount | None:
    """Delete readings a north service or task set aside

     Removes the readings set aside with the entry ids given in `id` (repeat the parameter for several),
    or all of them without it; ids that are not set-aside readings of this north service or task are
    ignored. Answers how many were removed. An unknown north service or task is 404.

    Args:
        north_name (str):
        id (list[int] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideCount
    """

    return (
        await asyncio_detailed(
            north_name=north_name,
            client=client,
            id=id,
        )
    ).parsed
