from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.update_started import UpdateStarted
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/update",
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> UpdateStarted:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = UpdateStarted.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[UpdateStarted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: Client,
) -> Response[UpdateStarted]:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed. Admins only, in every authentication mode: 401 without a token, 403 for
    every other role.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UpdateStarted]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
) -> UpdateStarted:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed. Admins only, in every authentication mode: 401 without a token, 403 for
    every other role.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        UpdateStarted
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
) -> Response[UpdateStarted]:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed. Admins only, in every authentication mode: 401 without a token, 403 for
    every other role.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UpdateStarted]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
) -> UpdateStarted:
    """Update all installed packages

     Returns at once and moves every installed package to the newest (or pinned) version in a background
    task named `package update` (`GET /edge/task`: Running, then Complete with exit code 0, or 1 and the
    reasons); services using an updated plugin are restarted. PKGUP is audited per package, UPEXC at the
    end. At most `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when
    no repository or trusted key is configured; 502 when the repository is unreachable or its index
    unsigned or badly signed. Admins only, in every authentication mode: 401 without a token, 403 for
    every other role.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        UpdateStarted
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
