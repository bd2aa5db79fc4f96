from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.north_task_create_request import NorthTaskCreateRequest
from ...models.service_created import ServiceCreated
from ...types import Response


def _get_kwargs(
    *,
    body: NorthTaskCreateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/scheduled/task",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ServiceCreated | None:
    if response.status_code == 200:
        response_200 = ServiceCreated.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | ServiceCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NorthTaskCreateRequest,
) -> Response[Error | ServiceCreated]:
    """Create a north task

     Creates a north task: a scheduled process that, at each run, sends the readings buffered since its
    last run through its north plugin and ends (a task record per run, NHCOM audited with the number
    sent when it completes). It creates the task's category (the plugin's items with the `config` values
    and a readonly `plugin` item) and its INTERVAL schedule repeating every `repeat` seconds (SCHAD
    audited), both named after it; an enabled task runs at once and then every `repeat` seconds, never
    two runs at once. Like a north service it starts with the oldest buffered reading and saves its
    stream position only after the destination accepted a block; its statistic, named after it, counts
    the readings it sent. It is listed by `GET /edge/north` with type `task`, enabled and disabled
    through its schedule, and deleted with `DELETE /edge/service/{name}`. `id` is the schedule's id.
    Errors, as for creating a service: 400 invalid body, name, `repeat` or config value, or a plugin
    that is not a north plugin; 404 unknown plugin; 409 name taken by a service, a schedule or a
    configuration category, or reserved (`Edge Core`, `Edge Storage`).

    Args:
        body (NorthTaskCreateRequest): A north task to create. Without `config` the plugin's
            defaults are used; a `config` value breaking the plugin's item rules is 400 and nothing is
            created.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: NorthTaskCreateRequest,
) -> Error | ServiceCreated | None:
    """Create a north task

     Creates a north task: a scheduled process that, at each run, sends the readings buffered since its
    last run through its north plugin and ends (a task record per run, NHCOM audited with the number
    sent when it completes). It creates the task's category (the plugin's items with the `config` values
    and a readonly `plugin` item) and its INTERVAL schedule repeating every `repeat` seconds (SCHAD
    audited), both named after it; an enabled task runs at once and then every `repeat` seconds, never
    two runs at once. Like a north service it starts with the oldest buffered reading and saves its
    stream position only after the destination accepted a block; its statistic, named after it, counts
    the readings it sent. It is listed by `GET /edge/north` with type `task`, enabled and disabled
    through its schedule, and deleted with `DELETE /edge/service/{name}`. `id` is the schedule's id.
    Errors, as for creating a service: 400 invalid body, name, `repeat` or config value, or a plugin
    that is not a north plugin; 404 unknown plugin; 409 name taken by a service, a schedule or a
    configuration category, or reserved (`Edge Core`, `Edge Storage`).

    Args:
        body (NorthTaskCreateRequest): A north task to create. Without `config` the plugin's
            defaults are used; a `config` value breaking the plugin's item rules is 400 and nothing is
            created.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NorthTaskCreateRequest,
) -> Response[Error | ServiceCreated]:
    """Create a north task

     Creates a north task: a scheduled process that, at each run, sends the readings buffered since its
    last run through its north plugin and ends (a task record per run, NHCOM audited with the number
    sent when it completes). It creates the task's category (the plugin's items with the `config` values
    and a readonly `plugin` item) and its INTERVAL schedule repeating every `repeat` seconds (SCHAD
    audited), both named after it; an enabled task runs at once and then every `repeat` seconds, never
    two runs at once. Like a north service it starts with the oldest buffered reading and saves its
    stream position only after the destination accepted a block; its statistic, named after it, counts
    the readings it sent. It is listed by `GET /edge/north` with type `task`, enabled and disabled
    through its schedule, and deleted with `DELETE /edge/service/{name}`. `id` is the schedule's id.
    Errors, as for creating a service: 400 invalid body, name, `repeat` or config value, or a plugin
    that is not a north plugin; 404 unknown plugin; 409 name taken by a service, a schedule or a
    configuration category, or reserved (`Edge Core`, `Edge Storage`).

    Args:
        body (NorthTaskCreateRequest): A north task to create. Without `config` the plugin's
            defaults are used; a `config` value breaking the plugin's item rules is 400 and nothing is
            created.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NorthTaskCreateRequest,
) -> Error | ServiceCreated | None:
    """Create a north task

     Creates a north task: a scheduled process that, at each run, sends the readings buffered since its
    last run through its north plugin and ends (a task record per run, NHCOM audited with the number
    sent when it completes). It creates the task's category (the plugin's items with the `config` values
    and a readonly `plugin` item) and its INTERVAL schedule repeating every `repeat` seconds (SCHAD
    audited), both named after it; an enabled task runs at once and then every `repeat` seconds, never
    two runs at once. Like a north service it starts with the oldest buffered reading and saves its
    stream position only after the destination accepted a block; its statistic, named after it, counts
    the readings it sent. It is listed by `GET /edge/north` with type `task`, enabled and disabled
    through its schedule, and deleted with `DELETE /edge/service/{name}`. `id` is the schedule's id.
    Errors, as for creating a service: 400 invalid body, name, `repeat` or config value, or a plugin
    that is not a north plugin; 404 unknown plugin; 409 name taken by a service, a schedule or a
    configuration category, or reserved (`Edge Core`, `Edge Storage`).

    Args:
        body (NorthTaskCreateRequest): A north task to create. Without `config` the plugin's
            defaults are used; a `config` value breaking the plugin's item rules is 400 and nothing is
            created.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ServiceCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
