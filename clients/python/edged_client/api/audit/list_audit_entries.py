from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.audit_list import AuditList
from ...models.audit_source import AuditSource
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | None = None,
    skip: int | None = None,
    source: AuditSource | None = None,
    severity: str | None = None,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    if limit is not None:
        params["limit"] = limit

    if skip is not None:
        params["skip"] = skip

    if source is not None:
        json_source: str | Unset = UNSET
        if not isinstance(source, Unset):
            json_source = source.value

        params["source"] = json_source

    if severity is not None:
        params["severity"] = severity

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/audit",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> AuditList:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = AuditList.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[AuditList]:
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
    limit: int | None = None,
    skip: int | None = None,
    source: AuditSource | None = None,
    severity: str | None = None,
) -> Response[AuditList]:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry, as a request names it
            (`POST
            /edge/audit`, the `source` filter of `GET /edge/audit`; an unknown one is
            400). Responses carry codes as `AuditSourceCode`, an open set: a newer
            gateway may report codes not listed here. The codes this gateway knows:
            - `PURGE` data purging process (each purge run)
            - `LOGGN` logging process
            - `STRMN` streaming process
            - `SYPRG` system purge
            - `START` system startup
            - `FSTOP` system shutdown
            - `CONCH` configuration change
            - `CONAD` configuration addition
            - `SCHCH` schedule change (enable and disable included)
            - `SCHAD` schedule addition
            - `SRVRG` service registered (started)
            - `SRVUN` service unregistered (stopped)
            - `SRVFL` service failed
            - `NHCOM` north process complete
            - `NHDWN` north destination unavailable
            - `NHAVL` north destination available
            - `UPEXC` update complete
            - `BKEXC` backup complete (FAILURE when it failed; details: `id`, `size` or `reason`,
            `readings`)
            - `NTFDL` notification (or one of its extra channels) deleted
            - `NTFAD` notification added
            - `NTFSN` notification sent
            - `NTFCL` notification cleared
            - `NTFST` notification server startup
            - `NTFSD` notification server shutdown
            - `PKGIN` package installation
            - `PKGUP` package updated
            - `PKGRM` package purged
            - `DSPST` dispatcher startup
            - `DSPSD` dispatcher shutdown
            - `ESSRT` external service startup
            - `ESSTP` external service shutdown
            - `USRAD` user added
            - `USRCH` user changed
            - `USRDL` user deleted
            - `ASTDP` asset tracking event deprecated
            - `LOGFL` failed login
            - `NHREJ` north destination refused readings for good; they are set aside (details:
            `name`, `readings` ids, `reason`, `resent`)
            - `CTLWR` control write through the dispatcher (details: `caller`, `destination`, `name`,
            `values`, `results` or `error`; FAILURE when refused or failed)
            - `BKRST` restore of a backup requested; the gateway restarts (details: `id`, `createdAt`,
            `readings`)
            - `BKRSC` restore of a backup complete, at the start after the request (FAILURE with
            `reason` when it failed)
            - `CTLOP` control operation through the dispatcher (details: `caller`, `destination`,
            `name`, `operation`, `parameters`, `results` or `error`; FAILURE when refused or failed)
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AuditList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        skip=skip,
        source=source,
        severity=severity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: AuditSource | None = None,
    severity: str | None = None,
) -> AuditList:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry, as a request names it
            (`POST
            /edge/audit`, the `source` filter of `GET /edge/audit`; an unknown one is
            400). Responses carry codes as `AuditSourceCode`, an open set: a newer
            gateway may report codes not listed here. The codes this gateway knows:
            - `PURGE` data purging process (each purge run)
            - `LOGGN` logging process
            - `STRMN` streaming process
            - `SYPRG` system purge
            - `START` system startup
            - `FSTOP` system shutdown
            - `CONCH` configuration change
            - `CONAD` configuration addition
            - `SCHCH` schedule change (enable and disable included)
            - `SCHAD` schedule addition
            - `SRVRG` service registered (started)
            - `SRVUN` service unregistered (stopped)
            - `SRVFL` service failed
            - `NHCOM` north process complete
            - `NHDWN` north destination unavailable
            - `NHAVL` north destination available
            - `UPEXC` update complete
            - `BKEXC` backup complete (FAILURE when it failed; details: `id`, `size` or `reason`,
            `readings`)
            - `NTFDL` notification (or one of its extra channels) deleted
            - `NTFAD` notification added
            - `NTFSN` notification sent
            - `NTFCL` notification cleared
            - `NTFST` notification server startup
            - `NTFSD` notification server shutdown
            - `PKGIN` package installation
            - `PKGUP` package updated
            - `PKGRM` package purged
            - `DSPST` dispatcher startup
            - `DSPSD` dispatcher shutdown
            - `ESSRT` external service startup
            - `ESSTP` external service shutdown
            - `USRAD` user added
            - `USRCH` user changed
            - `USRDL` user deleted
            - `ASTDP` asset tracking event deprecated
            - `LOGFL` failed login
            - `NHREJ` north destination refused readings for good; they are set aside (details:
            `name`, `readings` ids, `reason`, `resent`)
            - `CTLWR` control write through the dispatcher (details: `caller`, `destination`, `name`,
            `values`, `results` or `error`; FAILURE when refused or failed)
            - `BKRST` restore of a backup requested; the gateway restarts (details: `id`, `createdAt`,
            `readings`)
            - `BKRSC` restore of a backup complete, at the start after the request (FAILURE with
            `reason` when it failed)
            - `CTLOP` control operation through the dispatcher (details: `caller`, `destination`,
            `name`, `operation`, `parameters`, `results` or `error`; FAILURE when refused or failed)
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AuditList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        skip=skip,
        source=source,
        severity=severity,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: AuditSource | None = None,
    severity: str | None = None,
) -> Response[AuditList]:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry, as a request names it
            (`POST
            /edge/audit`, the `source` filter of `GET /edge/audit`; an unknown one is
            400). Responses carry codes as `AuditSourceCode`, an open set: a newer
            gateway may report codes not listed here. The codes this gateway knows:
            - `PURGE` data purging process (each purge run)
            - `LOGGN` logging process
            - `STRMN` streaming process
            - `SYPRG` system purge
            - `START` system startup
            - `FSTOP` system shutdown
            - `CONCH` configuration change
            - `CONAD` configuration addition
            - `SCHCH` schedule change (enable and disable included)
            - `SCHAD` schedule addition
            - `SRVRG` service registered (started)
            - `SRVUN` service unregistered (stopped)
            - `SRVFL` service failed
            - `NHCOM` north process complete
            - `NHDWN` north destination unavailable
            - `NHAVL` north destination available
            - `UPEXC` update complete
            - `BKEXC` backup complete (FAILURE when it failed; details: `id`, `size` or `reason`,
            `readings`)
            - `NTFDL` notification (or one of its extra channels) deleted
            - `NTFAD` notification added
            - `NTFSN` notification sent
            - `NTFCL` notification cleared
            - `NTFST` notification server startup
            - `NTFSD` notification server shutdown
            - `PKGIN` package installation
            - `PKGUP` package updated
            - `PKGRM` package purged
            - `DSPST` dispatcher startup
            - `DSPSD` dispatcher shutdown
            - `ESSRT` external service startup
            - `ESSTP` external service shutdown
            - `USRAD` user added
            - `USRCH` user changed
            - `USRDL` user deleted
            - `ASTDP` asset tracking event deprecated
            - `LOGFL` failed login
            - `NHREJ` north destination refused readings for good; they are set aside (details:
            `name`, `readings` ids, `reason`, `resent`)
            - `CTLWR` control write through the dispatcher (details: `caller`, `destination`, `name`,
            `values`, `results` or `error`; FAILURE when refused or failed)
            - `BKRST` restore of a backup requested; the gateway restarts (details: `id`, `createdAt`,
            `readings`)
            - `BKRSC` restore of a backup complete, at the start after the request (FAILURE with
            `reason` when it failed)
            - `CTLOP` control operation through the dispatcher (details: `caller`, `destination`,
            `name`, `operation`, `parameters`, `results` or `error`; FAILURE when refused or failed)
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[AuditList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        skip=skip,
        source=source,
        severity=severity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    limit: int | None = None,
    skip: int | None = None,
    source: AuditSource | None = None,
    severity: str | None = None,
) -> AuditList:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry, as a request names it
            (`POST
            /edge/audit`, the `source` filter of `GET /edge/audit`; an unknown one is
            400). Responses carry codes as `AuditSourceCode`, an open set: a newer
            gateway may report codes not listed here. The codes this gateway knows:
            - `PURGE` data purging process (each purge run)
            - `LOGGN` logging process
            - `STRMN` streaming process
            - `SYPRG` system purge
            - `START` system startup
            - `FSTOP` system shutdown
            - `CONCH` configuration change
            - `CONAD` configuration addition
            - `SCHCH` schedule change (enable and disable included)
            - `SCHAD` schedule addition
            - `SRVRG` service registered (started)
            - `SRVUN` service unregistered (stopped)
            - `SRVFL` service failed
            - `NHCOM` north process complete
            - `NHDWN` north destination unavailable
            - `NHAVL` north destination available
            - `UPEXC` update complete
            - `BKEXC` backup complete (FAILURE when it failed; details: `id`, `size` or `reason`,
            `readings`)
            - `NTFDL` notification (or one of its extra channels) deleted
            - `NTFAD` notification added
            - `NTFSN` notification sent
            - `NTFCL` notification cleared
            - `NTFST` notification server startup
            - `NTFSD` notification server shutdown
            - `PKGIN` package installation
            - `PKGUP` package updated
            - `PKGRM` package purged
            - `DSPST` dispatcher startup
            - `DSPSD` dispatcher shutdown
            - `ESSRT` external service startup
            - `ESSTP` external service shutdown
            - `USRAD` user added
            - `USRCH` user changed
            - `USRDL` user deleted
            - `ASTDP` asset tracking event deprecated
            - `LOGFL` failed login
            - `NHREJ` north destination refused readings for good; they are set aside (details:
            `name`, `readings` ids, `reason`, `resent`)
            - `CTLWR` control write through the dispatcher (details: `caller`, `destination`, `name`,
            `values`, `results` or `error`; FAILURE when refused or failed)
            - `BKRST` restore of a backup requested; the gateway restarts (details: `id`, `createdAt`,
            `readings`)
            - `BKRSC` restore of a backup complete, at the start after the request (FAILURE with
            `reason` when it failed)
            - `CTLOP` control operation through the dispatcher (details: `caller`, `destination`,
            `name`, `operation`, `parameters`, `results` or `error`; FAILURE when refused or failed)
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        AuditList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            skip=skip,
            source=source,
            severity=severity,
        )
    ).parsed
