from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category_create import CategoryCreate
from ...models.category_created import CategoryCreated
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: CategoryCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/edge/category",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CategoryCreated | Error | None:
    if response.status_code == 200:
        response_200 = CategoryCreated.from_dict(response.json())

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
) -> Response[CategoryCreated | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CategoryCreate,
) -> Response[CategoryCreated | Error]:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category.

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryCreated | Error]
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
    body: CategoryCreate,
) -> CategoryCreated | Error | None:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category.

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryCreated | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CategoryCreate,
) -> Response[CategoryCreated | Error]:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category.

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CategoryCreated | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CategoryCreate,
) -> CategoryCreated | Error | None:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category.

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CategoryCreated | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
