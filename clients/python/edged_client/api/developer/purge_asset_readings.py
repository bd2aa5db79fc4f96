from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.purged import Purged
from ...types import Response


def _get_kwargs(
    code: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/edge/asset/{code}".format(
            code=quote(str(code), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Purged:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Purged.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Purged]:
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
    code: str,
    *,
    client: Client,
) -> Response[Purged]:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Purged]
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
    client: Client,
) -> Purged:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Purged
    """

    return sync_detailed(
        code=code,
        client=client,
    ).parsed


async def asyncio_detailed(
    code: str,
    *,
    client: Client,
) -> Response[Purged]:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Purged]
    """

    kwargs = _get_kwargs(
        code=code,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    *,
    client: Client,
) -> Purged:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Purged
    """

    return (
        await asyncio_detailed(
            code=code,
            client=client,
        )
    ).parsed
