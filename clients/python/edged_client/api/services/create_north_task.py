from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
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
    body: NorthTaskCreateRequest,
) -> Response[ServiceCreated]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
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
    client: Client,
    body: NorthTaskCreateRequest,
) -> ServiceCreated:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        ServiceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: NorthTaskCreateRequest,
) -> Response[ServiceCreated]:
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
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[ServiceCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: NorthTaskCreateRequest,
) -> ServiceCreated:
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
        )
    ).parsed
