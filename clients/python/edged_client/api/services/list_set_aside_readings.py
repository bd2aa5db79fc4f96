from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.set_aside_list import SetAsideList
from ...types import UNSET, Response


def _get_kwargs(
    north_name: str,
    *,
    limit: int | None = None,
    skip: int | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
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


def _parse_response(*, client: Client, response: httpx.Response) -> SetAsideList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = SetAsideList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[SetAsideList]:
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
    north_name: str,
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[SetAsideList]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideList]
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
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
) -> SetAsideList:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        SetAsideList
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
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
) -> Response[SetAsideList]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[SetAsideList]
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
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
) -> SetAsideList:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        SetAsideList
    """

    return (
        await asyncio_detailed(
            north_name=north_name,
            client=client,
            limit=limit,
            skip=skip,
        )
    ).parsed
