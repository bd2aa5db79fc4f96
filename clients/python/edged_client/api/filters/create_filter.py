from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | FilterInstance | None:
    if response.status_code == 200:
        response_200 = FilterInstance.from_dict(response.json())

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | FilterInstance]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: FilterCreateRequest,
) -> Response[Error | FilterInstance]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FilterInstance]
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
    body: FilterCreateRequest,
) -> Error | FilterInstance | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FilterInstance
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: FilterCreateRequest,
) -> Response[Error | FilterInstance]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FilterInstance]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: FilterCreateRequest,
) -> Error | FilterInstance | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FilterInstance
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
