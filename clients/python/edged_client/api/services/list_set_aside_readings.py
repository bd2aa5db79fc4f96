from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_aside_list import SetAsideList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    north_name: str,
    *,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["skip"] = skip

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/north/{north_name}/setaside".format(
            north_name=quote(str(north_name), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | SetAsideList | None:
    if response.status_code == 200:
        response_200 = SetAsideList.from_dict(response.json())

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
) -> Response[Error | SetAsideList]:
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
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Response[Error | SetAsideList]:
    """List the readings a north service or task set aside

     Returns, oldest first, the readings the destination of the north service or task refused for good
    and that were set aside so that forwarding could go on. A north plugin decides what counts as
    refused for good: `http_north` sets a reading aside when the destination answered 400 or 422 to it
    (or 413 to it alone) `rejectAfter` times in a row (an item of its configuration, default 3), after
    halving the refused requests until the reading was alone; any other failure (no answer, 5xx, 408,
    429, 401, 403, 404, …) is retried with backoff and never sets anything aside. Each reading set aside
    is kept as a copy (the purge does not remove it), counted in the statistic `<name>-SetAside`, and
    audited `NHREJ` with its reading id. Send readings again with `PUT …/setaside/resend`, remove them
    with `DELETE …/setaside`. An unknown north service or task is 404.

    Args:
        north_name (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideList]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        limit=limit,
        skip=skip,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Error | SetAsideList | None:
    """List the readings a north service or task set aside

     Returns, oldest first, the readings the destination of the north service or task refused for good
    and that were set aside so that forwarding could go on. A north plugin decides what counts as
    refused for good: `http_north` sets a reading aside when the destination answered 400 or 422 to it
    (or 413 to it alone) `rejectAfter` times in a row (an item of its configuration, default 3), after
    halving the refused requests until the reading was alone; any other failure (no answer, 5xx, 408,
    429, 401, 403, 404, …) is retried with backoff and never sets anything aside. Each reading set aside
    is kept as a copy (the purge does not remove it), counted in the statistic `<name>-SetAside`, and
    audited `NHREJ` with its reading id. Send readings again with `PUT …/setaside/resend`, remove them
    with `DELETE …/setaside`. An unknown north service or task is 404.

    Args:
        north_name (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideList
    """

    return sync_detailed(
        north_name=north_name,
        client=client,
        limit=limit,
        skip=skip,
    ).parsed


async def asyncio_detailed(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Response[Error | SetAsideList]:
    """List the readings a north service or task set aside

     Returns, oldest first, the readings the destination of the north service or task refused for good
    and that were set aside so that forwarding could go on. A north plugin decides what counts as
    refused for good: `http_north` sets a reading aside when the destination answered 400 or 422 to it
    (or 413 to it alone) `rejectAfter` times in a row (an item of its configuration, default 3), after
    halving the refused requests until the reading was alone; any other failure (no answer, 5xx, 408,
    429, 401, 403, 404, …) is retried with backoff and never sets anything aside. Each reading set aside
    is kept as a copy (the purge does not remove it), counted in the statistic `<name>-SetAside`, and
    audited `NHREJ` with its reading id. Send readings again with `PUT …/setaside/resend`, remove them
    with `DELETE …/setaside`. An unknown north service or task is 404.

    Args:
        north_name (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetAsideList]
    """

    kwargs = _get_kwargs(
        north_name=north_name,
        limit=limit,
        skip=skip,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    north_name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
) -> Error | SetAsideList | None:
    """List the readings a north service or task set aside

     Returns, oldest first, the readings the destination of the north service or task refused for good
    and that were set aside so that forwarding could go on. A north plugin decides what counts as
    refused for good: `http_north` sets a reading aside when the destination answered 400 or 422 to it
    (or 413 to it alone) `rejectAfter` times in a row (an item of its configuration, default 3), after
    halving the refused requests until the reading was alone; any other failure (no answer, 5xx, 408,
    429, 401, 403, 404, …) is retried with backoff and never sets anything aside. Each reading set aside
    is kept as a copy (the purge does not remove it), counted in the statistic `<name>-SetAside`, and
    audited `NHREJ` with its reading id. Send readings again with `PUT …/setaside/resend`, remove them
    with `DELETE …/setaside`. An unknown north service or task is 404.

    Args:
        north_name (str):
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetAsideList
    """

    return (
        await asyncio_detailed(
            north_name=north_name,
            client=client,
            limit=limit,
            skip=skip,
        )
    ).parsed
