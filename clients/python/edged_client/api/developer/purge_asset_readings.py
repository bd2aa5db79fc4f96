from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Purged | None:
    if response.status_code == 200:
        response_200 = Purged.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Purged]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    code: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Purged]:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Purged]
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
    client: AuthenticatedClient | Client,
) -> Error | Purged | None:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Purged
    """

    return sync_detailed(
        code=code,
        client=client,
    ).parsed


async def asyncio_detailed(
    code: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Purged]:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Purged]
    """

    kwargs = _get_kwargs(
        code=code,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    code: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | Purged | None:
    """Purge an asset's buffered readings

     Irreversibly removes the buffered readings of one asset stored when the call starts, in blocks so
    ingest goes on; writes a PURGE audit entry (`asset`, `rowsRemoved`, `rowsRetained`) and adds the
    count to the PURGED statistic. An unknown asset gives `{"purged": 0}` (and is audited too).

    Args:
        code (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Purged
    """

    return (
        await asyncio_detailed(
            code=code,
            client=client,
        )
    ).parsed
