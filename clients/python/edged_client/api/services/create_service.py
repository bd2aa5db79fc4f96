from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.create_service_action import CreateServiceAction
from ...models.package_install_request import PackageInstallRequest
from ...models.service_create_request import ServiceCreateRequest
from ...models.service_created import ServiceCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PackageInstallRequest | ServiceCreateRequest,
    action: CreateServiceAction | None = None,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    if action is not None:
        json_action: str | Unset = UNSET
        if not isinstance(action, Unset):
            json_action = action.value

        params["action"] = json_action

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/service",
        "params": params,
    }

    if isinstance(body, ServiceCreateRequest):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> ServiceCreated:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = ServiceCreated.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[ServiceCreated]:
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
    body: PackageInstallRequest | ServiceCreateRequest,
    action: CreateServiceAction | None = None,
) -> Response[ServiceCreated]:
    """Create a service or install a service package

     Without `action`, the body is a ServiceCreateRequest: creates the service's category and STARTUP
    schedule (both named after it) and starts it when enabled (never in safe mode), all or nothing: the
    whole request, `config` included, is validated before anything is created. `id` is the new
    schedule's id; SCHAD is audited, and SRVRG when the service starts. The category holds the plugin's
    items, a readonly `plugin` item naming the plugin, and the ingest settings `bufferThreshold` (the
    most readings one transaction groups, default 1000: readings are written as soon as the writer is
    free, with what queued while it was busy) and `maxSendLatency` (milliseconds readings of a polled
    plugin may wait to share a transaction, default 100; readings a sender waits for never wait);
    changing an item reconfigures the running service. With `action=install` (admins only, in every
    authentication mode: 401 without a token, 403 for every other role; creating a service is for
    `admin`, `user` and `control`) the body is a PackageInstallRequest: the service package is
    downloaded from the configured repository, verified against the signed index, unpacked and
    registered in the background, as a task named `package install`; the answer comes at once with the
    task's id, `link` to follow it (`GET /edge/task/{id}`: Running, then Complete with exit code 0, or 1
    and the reason) and `log`, the repository log. PKGIN is audited (FAILURE when it failed; nothing of
    a failed install stays). Install errors: 400 no repository or trusted key configured; 404 no such
    service package (or version) in the repository; 409 already installed; 429 the same install running;
    502 repository unreachable, timed out or answering an error status, or its index unsigned, not
    signed by a trusted key, expired or older than one accepted before (a refused index is audited PKGIN
    FAILURE). An installed package is installed again only with `allowDowngrade`, to move it down to the
    pinned release (see PackageInstallRequest). The executable installed is hashed into the package's
    manifest and checked at every start of the plugin: a changed file is not started, and the services
    using it fail saying so (SRVFL). Errors: 400 invalid body or config value (the message names the
    field or item); 404 unknown plugin; 409 name taken by a service, a schedule or a configuration
    category, or reserved (`Edge Core`, `Edge Storage`). The types notification and dispatcher need
    their service package installed (`GET /edge/service/installed` lists `notification` and `dispatcher`
    once it is; 404 before) and take no `plugin`; a gateway has at most one of each (400 for a second).
    They run as their own supervised processes, restarted with backoff when they fail, and audit
    NTFST/NTFSD or DSPST/DSPSD when they start and stop. A north service's category holds its plugin's
    items and the readonly `plugin` item (no ingest settings); it starts with the oldest buffered
    reading and then sends continuously, saving its stream position only after the destination accepted
    a block (at least once: a crash of either side resends, never skips). Its statistic, named after it,
    counts the readings it sent.

    Args:
        action (CreateServiceAction | Unset):
        body (PackageInstallRequest | ServiceCreateRequest): The body of `POST /edge/service`: a
            ServiceCreateRequest, or with `action=install` a PackageInstallRequest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        action=action,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    body: PackageInstallRequest | ServiceCreateRequest,
    action: CreateServiceAction | None = None,
) -> ServiceCreated:
    """Create a service or install a service package

     Without `action`, the body is a ServiceCreateRequest: creates the service's category and STARTUP
    schedule (both named after it) and starts it when enabled (never in safe mode), all or nothing: the
    whole request, `config` included, is validated before anything is created. `id` is the new
    schedule's id; SCHAD is audited, and SRVRG when the service starts. The category holds the plugin's
    items, a readonly `plugin` item naming the plugin, and the ingest settings `bufferThreshold` (the
    most readings one transaction groups, default 1000: readings are written as soon as the writer is
    free, with what queued while it was busy) and `maxSendLatency` (milliseconds readings of a polled
    plugin may wait to share a transaction, default 100; readings a sender waits for never wait);
    changing an item reconfigures the running service. With `action=install` (admins only, in every
    authentication mode: 401 without a token, 403 for every other role; creating a service is for
    `admin`, `user` and `control`) the body is a PackageInstallRequest: the service package is
    downloaded from the configured repository, verified against the signed index, unpacked and
    registered in the background, as a task named `package install`; the answer comes at once with the
    task's id, `link` to follow it (`GET /edge/task/{id}`: Running, then Complete with exit code 0, or 1
    and the reason) and `log`, the repository log. PKGIN is audited (FAILURE when it failed; nothing of
    a failed install stays). Install errors: 400 no repository or trusted key configured; 404 no such
    service package (or version) in the repository; 409 already installed; 429 the same install running;
    502 repository unreachable, timed out or answering an error status, or its index unsigned, not
    signed by a trusted key, expired or older than one accepted before (a refused index is audited PKGIN
    FAILURE). An installed package is installed again only with `allowDowngrade`, to move it down to the
    pinned release (see PackageInstallRequest). The executable installed is hashed into the package's
    manifest and checked at every start of the plugin: a changed file is not started, and the services
    using it fail saying so (SRVFL). Errors: 400 invalid body or config value (the message names the
    field or item); 404 unknown plugin; 409 name taken by a service, a schedule or a configuration
    category, or reserved (`Edge Core`, `Edge Storage`). The types notification and dispatcher need
    their service package installed (`GET /edge/service/installed` lists `notification` and `dispatcher`
    once it is; 404 before) and take no `plugin`; a gateway has at most one of each (400 for a second).
    They run as their own supervised processes, restarted with backoff when they fail, and audit
    NTFST/NTFSD or DSPST/DSPSD when they start and stop. A north service's category holds its plugin's
    items and the readonly `plugin` item (no ingest settings); it starts with the oldest buffered
    reading and then sends continuously, saving its stream position only after the destination accepted
    a block (at least once: a crash of either side resends, never skips). Its statistic, named after it,
    counts the readings it sent.

    Args:
        action (CreateServiceAction | Unset):
        body (PackageInstallRequest | ServiceCreateRequest): The body of `POST /edge/service`: a
            ServiceCreateRequest, or with `action=install` a PackageInstallRequest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
        action=action,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: PackageInstallRequest | ServiceCreateRequest,
    action: CreateServiceAction | None = None,
) -> Response[ServiceCreated]:
    """Create a service or install a service package

     Without `action`, the body is a ServiceCreateRequest: creates the service's category and STARTUP
    schedule (both named after it) and starts it when enabled (never in safe mode), all or nothing: the
    whole request, `config` included, is validated before anything is created. `id` is the new
    schedule's id; SCHAD is audited, and SRVRG when the service starts. The category holds the plugin's
    items, a readonly `plugin` item naming the plugin, and the ingest settings `bufferThreshold` (the
    most readings one transaction groups, default 1000: readings are written as soon as the writer is
    free, with what queued while it was busy) and `maxSendLatency` (milliseconds readings of a polled
    plugin may wait to share a transaction, default 100; readings a sender waits for never wait);
    changing an item reconfigures the running service. With `action=install` (admins only, in every
    authentication mode: 401 without a token, 403 for every other role; creating a service is for
    `admin`, `user` and `control`) the body is a PackageInstallRequest: the service package is
    downloaded from the configured repository, verified against the signed index, unpacked and
    registered in the background, as a task named `package install`; the answer comes at once with the
    task's id, `link` to follow it (`GET /edge/task/{id}`: Running, then Complete with exit code 0, or 1
    and the reason) and `log`, the repository log. PKGIN is audited (FAILURE when it failed; nothing of
    a failed install stays). Install errors: 400 no repository or trusted key configured; 404 no such
    service package (or version) in the repository; 409 already installed; 429 the same install running;
    502 repository unreachable, timed out or answering an error status, or its index unsigned, not
    signed by a trusted key, expired or older than one accepted before (a refused index is audited PKGIN
    FAILURE). An installed package is installed again only with `allowDowngrade`, to move it down to the
    pinned release (see PackageInstallRequest). The executable installed is hashed into the package's
    manifest and checked at every start of the plugin: a changed file is not started, and the services
    using it fail saying so (SRVFL). Errors: 400 invalid body or config value (the message names the
    field or item); 404 unknown plugin; 409 name taken by a service, a schedule or a configuration
    category, or reserved (`Edge Core`, `Edge Storage`). The types notification and dispatcher need
    their service package installed (`GET /edge/service/installed` lists `notification` and `dispatcher`
    once it is; 404 before) and take no `plugin`; a gateway has at most one of each (400 for a second).
    They run as their own supervised processes, restarted with backoff when they fail, and audit
    NTFST/NTFSD or DSPST/DSPSD when they start and stop. A north service's category holds its plugin's
    items and the readonly `plugin` item (no ingest settings); it starts with the oldest buffered
    reading and then sends continuously, saving its stream position only after the destination accepted
    a block (at least once: a crash of either side resends, never skips). Its statistic, named after it,
    counts the readings it sent.

    Args:
        action (CreateServiceAction | Unset):
        body (PackageInstallRequest | ServiceCreateRequest): The body of `POST /edge/service`: a
            ServiceCreateRequest, or with `action=install` a PackageInstallRequest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        action=action,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: PackageInstallRequest | ServiceCreateRequest,
    action: CreateServiceAction | None = None,
) -> ServiceCreated:
    """Create a service or install a service package

     Without `action`, the body is a ServiceCreateRequest: creates the service's category and STARTUP
    schedule (both named after it) and starts it when enabled (never in safe mode), all or nothing: the
    whole request, `config` included, is validated before anything is created. `id` is the new
    schedule's id; SCHAD is audited, and SRVRG when the service starts. The category holds the plugin's
    items, a readonly `plugin` item naming the plugin, and the ingest settings `bufferThreshold` (the
    most readings one transaction groups, default 1000: readings are written as soon as the writer is
    free, with what queued while it was busy) and `maxSendLatency` (milliseconds readings of a polled
    plugin may wait to share a transaction, default 100; readings a sender waits for never wait);
    changing an item reconfigures the running service. With `action=install` (admins only, in every
    authentication mode: 401 without a token, 403 for every other role; creating a service is for
    `admin`, `user` and `control`) the body is a PackageInstallRequest: the service package is
    downloaded from the configured repository, verified against the signed index, unpacked and
    registered in the background, as a task named `package install`; the answer comes at once with the
    task's id, `link` to follow it (`GET /edge/task/{id}`: Running, then Complete with exit code 0, or 1
    and the reason) and `log`, the repository log. PKGIN is audited (FAILURE when it failed; nothing of
    a failed install stays). Install errors: 400 no repository or trusted key configured; 404 no such
    service package (or version) in the repository; 409 already installed; 429 the same install running;
    502 repository unreachable, timed out or answering an error status, or its index unsigned, not
    signed by a trusted key, expired or older than one accepted before (a refused index is audited PKGIN
    FAILURE). An installed package is installed again only with `allowDowngrade`, to move it down to the
    pinned release (see PackageInstallRequest). The executable installed is hashed into the package's
    manifest and checked at every start of the plugin: a changed file is not started, and the services
    using it fail saying so (SRVFL). Errors: 400 invalid body or config value (the message names the
    field or item); 404 unknown plugin; 409 name taken by a service, a schedule or a configuration
    category, or reserved (`Edge Core`, `Edge Storage`). The types notification and dispatcher need
    their service package installed (`GET /edge/service/installed` lists `notification` and `dispatcher`
    once it is; 404 before) and take no `plugin`; a gateway has at most one of each (400 for a second).
    They run as their own supervised processes, restarted with backoff when they fail, and audit
    NTFST/NTFSD or DSPST/DSPSD when they start and stop. A north service's category holds its plugin's
    items and the readonly `plugin` item (no ingest settings); it starts with the oldest buffered
    reading and then sends continuously, saving its stream position only after the destination accepted
    a block (at least once: a crash of either side resends, never skips). Its statistic, named after it,
    counts the readings it sent.

    Args:
        action (CreateServiceAction | Unset):
        body (PackageInstallRequest | ServiceCreateRequest): The body of `POST /edge/service`: a
            ServiceCreateRequest, or with `action=install` a PackageInstallRequest.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            action=action,
        )
    ).parsed
