from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.update_started import UpdateStarted
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/update",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | UpdateStarted | None:
    if response.status_code == 200:
        response_200 = UpdateStarted.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = Error.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | UpdateStarted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | UpdateStarted]:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateStarted]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | UpdateStarted | None:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateStarted
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | UpdateStarted]:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateStarted]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | UpdateStarted | None:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateStarted
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
