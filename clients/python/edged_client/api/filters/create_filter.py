from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.filter_create_request import FilterCreateRequest
from ...models.filter_instance import FilterInstance
from ...types import Response


def _get_kwargs(
    *,
    body: FilterCreateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/filter",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> FilterInstance:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = FilterInstance.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[FilterInstance]:
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
    body: FilterCreateRequest,
) -> Response[FilterInstance]:
    """Create a filter instance

     Creates a named instance of a filter plugin and its configuration category, named after it: the
    plugin's items, a readonly `plugin` item and `enable` (default true; false passes readings on
    unchanged). The category becomes a child of the category of each service whose pipeline holds the
    instance, and a change to one of its items applies at once to every running pipeline holding it. The
    whole request, `filter_config` included, is checked first: an unknown item, a value breaking its
    item's rules or a configuration the filter cannot use (an expression that does not compile, a
    malformed rule list) is 400 and nothing is created; an unknown plugin is 404; a name taken by a
    filter or by a configuration category (a service's included) is 409. Built-in filter plugins:
    `scale`, `rename`, `expression` (expr-lang expressions, compiled once per configuration), `delta`,
    `downsample`, `assets`, `metadata`.

    Args:
        body (FilterCreateRequest): A filter instance to create.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FilterInstance]
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
    body: FilterCreateRequest,
) -> FilterInstance:
    """Create a filter instance

     Creates a named instance of a filter plugin and its configuration category, named after it: the
    plugin's items, a readonly `plugin` item and `enable` (default true; false passes readings on
    unchanged). The category becomes a child of the category of each service whose pipeline holds the
    instance, and a change to one of its items applies at once to every running pipeline holding it. The
    whole request, `filter_config` included, is checked first: an unknown item, a value breaking its
    item's rules or a configuration the filter cannot use (an expression that does not compile, a
    malformed rule list) is 400 and nothing is created; an unknown plugin is 404; a name taken by a
    filter or by a configuration category (a service's included) is 409. Built-in filter plugins:
    `scale`, `rename`, `expression` (expr-lang expressions, compiled once per configuration), `delta`,
    `downsample`, `assets`, `metadata`.

    Args:
        body (FilterCreateRequest): A filter instance to create.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FilterInstance
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: FilterCreateRequest,
) -> Response[FilterInstance]:
    """Create a filter instance

     Creates a named instance of a filter plugin and its configuration category, named after it: the
    plugin's items, a readonly `plugin` item and `enable` (default true; false passes readings on
    unchanged). The category becomes a child of the category of each service whose pipeline holds the
    instance, and a change to one of its items applies at once to every running pipeline holding it. The
    whole request, `filter_config` included, is checked first: an unknown item, a value breaking its
    item's rules or a configuration the filter cannot use (an expression that does not compile, a
    malformed rule list) is 400 and nothing is created; an unknown plugin is 404; a name taken by a
    filter or by a configuration category (a service's included) is 409. Built-in filter plugins:
    `scale`, `rename`, `expression` (expr-lang expressions, compiled once per configuration), `delta`,
    `downsample`, `assets`, `metadata`.

    Args:
        body (FilterCreateRequest): A filter instance to create.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[FilterInstance]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: FilterCreateRequest,
) -> FilterInstance:
    """Create a filter instance

     Creates a named instance of a filter plugin and its configuration category, named after it: the
    plugin's items, a readonly `plugin` item and `enable` (default true; false passes readings on
    unchanged). The category becomes a child of the category of each service whose pipeline holds the
    instance, and a change to one of its items applies at once to every running pipeline holding it. The
    whole request, `filter_config` included, is checked first: an unknown item, a value breaking its
    item's rules or a configuration the filter cannot use (an expression that does not compile, a
    malformed rule list) is 400 and nothing is created; an unknown plugin is 404; a name taken by a
    filter or by a configuration category (a service's included) is 409. Built-in filter plugins:
    `scale`, `rename`, `expression` (expr-lang expressions, compiled once per configuration), `delta`,
    `downsample`, `assets`, `metadata`.

    Args:
        body (FilterCreateRequest): A filter instance to create.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        FilterInstance
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
