from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.update_started import UpdateStarted
from ...types import UNSET, Response


def _get_kwargs(
    *,
    allow_downgrade: bool | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if allow_downgrade is not None:
        params["allowDowngrade"] = allow_downgrade

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/update",
        "params": params,
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
    allow_downgrade: bool | None = None,
) -> Response[UpdateStarted]:
    """Update all installed packages

     Fetches and checks the repository's index, then returns at once and moves every installed package to
    the newest (or pinned) version in a background task named `package update` (`GET /edge/task`:
    Running, then Complete with exit code 0, or 1 and the reasons); services using an updated plugin are
    restarted. PKGUP is audited per package, UPEXC at the end. A package is never moved to a lower
    version (the repository offering only a lower one leaves it as it is, said in the log) unless `POST
    /edge/repository` pinned a version and this call sets `allowDowngrade`: then the package moves down
    to the pinned version, audited PKGUP WARNING with `"downgrade": true`. At most
    `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when no repository
    or trusted key is configured; 502, with no task started, when the repository is unreachable, times
    out or answers an error status, or its index is unsigned, not signed by a trusted key, expired, or
    older than one accepted before (a rollback); a refused index is audited UPEXC FAILURE. Admins only,
    in every authentication mode: 401 without a token, 403 for every other role.

    Args:
        allow_downgrade (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UpdateStarted]
    """

    kwargs = _get_kwargs(
        allow_downgrade=allow_downgrade,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    allow_downgrade: bool | None = None,
) -> UpdateStarted:
    """Update all installed packages

     Fetches and checks the repository's index, then returns at once and moves every installed package to
    the newest (or pinned) version in a background task named `package update` (`GET /edge/task`:
    Running, then Complete with exit code 0, or 1 and the reasons); services using an updated plugin are
    restarted. PKGUP is audited per package, UPEXC at the end. A package is never moved to a lower
    version (the repository offering only a lower one leaves it as it is, said in the log) unless `POST
    /edge/repository` pinned a version and this call sets `allowDowngrade`: then the package moves down
    to the pinned version, audited PKGUP WARNING with `"downgrade": true`. At most
    `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when no repository
    or trusted key is configured; 502, with no task started, when the repository is unreachable, times
    out or answers an error status, or its index is unsigned, not signed by a trusted key, expired, or
    older than one accepted before (a rollback); a refused index is audited UPEXC FAILURE. Admins only,
    in every authentication mode: 401 without a token, 403 for every other role.

    Args:
        allow_downgrade (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        UpdateStarted
    """

    return sync_detailed(
        client=client,
        allow_downgrade=allow_downgrade,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    allow_downgrade: bool | None = None,
) -> Response[UpdateStarted]:
    """Update all installed packages

     Fetches and checks the repository's index, then returns at once and moves every installed package to
    the newest (or pinned) version in a background task named `package update` (`GET /edge/task`:
    Running, then Complete with exit code 0, or 1 and the reasons); services using an updated plugin are
    restarted. PKGUP is audited per package, UPEXC at the end. A package is never moved to a lower
    version (the repository offering only a lower one leaves it as it is, said in the log) unless `POST
    /edge/repository` pinned a version and this call sets `allowDowngrade`: then the package moves down
    to the pinned version, audited PKGUP WARNING with `"downgrade": true`. At most
    `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when no repository
    or trusted key is configured; 502, with no task started, when the repository is unreachable, times
    out or answers an error status, or its index is unsigned, not signed by a trusted key, expired, or
    older than one accepted before (a rollback); a refused index is audited UPEXC FAILURE. Admins only,
    in every authentication mode: 401 without a token, 403 for every other role.

    Args:
        allow_downgrade (bool | Unset):  Default: False.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[UpdateStarted]
    """

    kwargs = _get_kwargs(
        allow_downgrade=allow_downgrade,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    allow_downgrade: bool | None = None,
) -> UpdateStarted:
    """Update all installed packages

     Fetches and checks the repository's index, then returns at once and moves every installed package to
    the newest (or pinned) version in a background task named `package update` (`GET /edge/task`:
    Running, then Complete with exit code 0, or 1 and the reasons); services using an updated plugin are
    restarted. PKGUP is audited per package, UPEXC at the end. A package is never moved to a lower
    version (the repository offering only a lower one leaves it as it is, said in the log) unless `POST
    /edge/repository` pinned a version and this call sets `allowDowngrade`: then the package moves down
    to the pinned version, audited PKGUP WARNING with `"downgrade": true`. At most
    `Installation.maxUpdate` updates start per 24 hours and one at a time (429). 400 when no repository
    or trusted key is configured; 502, with no task started, when the repository is unreachable, times
    out or answers an error status, or its index is unsigned, not signed by a trusted key, expired, or
    older than one accepted before (a rollback); a refused index is audited UPEXC FAILURE. Admins only,
    in every authentication mode: 401 without a token, 403 for every other role.

    Args:
        allow_downgrade (bool | Unset):  Default: False.

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
            allow_downgrade=allow_downgrade,
        )
    ).parsed
