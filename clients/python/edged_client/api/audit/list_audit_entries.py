from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_list import AuditList
from ...models.audit_source import AuditSource
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    source: AuditSource | Unset = UNSET,
    severity: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["skip"] = skip

    json_source: str | Unset = UNSET
    if not isinstance(source, Unset):
        json_source = source.value

    params["source"] = json_source

    params["severity"] = severity

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/edge/audit",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditList | Error | None:
    if response.status_code == 200:
        response_200 = AuditList.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    source: AuditSource | Unset = UNSET,
    severity: str | Unset = UNSET,
) -> Response[AuditList | Error]:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry:
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
            - `BKEXC` backup complete
            - `NTFDL` notification deleted
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
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditList | Error]
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
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    source: AuditSource | Unset = UNSET,
    severity: str | Unset = UNSET,
) -> AuditList | Error | None:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry:
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
            - `BKEXC` backup complete
            - `NTFDL` notification deleted
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
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditList | Error
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
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    source: AuditSource | Unset = UNSET,
    severity: str | Unset = UNSET,
) -> Response[AuditList | Error]:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry:
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
            - `BKEXC` backup complete
            - `NTFDL` notification deleted
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
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditList | Error]
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
    client: AuthenticatedClient | Client,
    limit: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    source: AuditSource | Unset = UNSET,
    severity: str | Unset = UNSET,
) -> AuditList | Error | None:
    """List audit entries

     Returns audit entries newest first, one page at a time (`limit` default 20). `totalCount` counts
    every entry matching the filters, not just the page. An unknown `source` or `severity` is 400.

    Args:
        limit (int | Unset):  Default: 20.
        skip (int | Unset):  Default: 0.
        source (AuditSource | Unset): The source code of an audit entry:
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
            - `BKEXC` backup complete
            - `NTFDL` notification deleted
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
             Example: CONCH.
        severity (str | Unset):  Example: failure.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditList | Error
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
