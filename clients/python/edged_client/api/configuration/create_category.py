from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import Client
from ...models.category_create import CategoryCreate
from ...models.category_created import CategoryCreated
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


def _parse_response(*, client: Client, response: httpx.Response) -> CategoryCreated:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = CategoryCreated.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[CategoryCreated]:
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
    body: CategoryCreate,
) -> Response[CategoryCreated]:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category. Merging
    into `rest_api`, `password` or `Installation` is for admins only (401 without a token, 403 for other
    roles); a new key that differs from one of those only by case or surrounding space (`REST_API`,
    `rest_api `, `Password`) is 400, and is protected alike when sent by a non-admin (401/403).

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryCreated]
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
    body: CategoryCreate,
) -> CategoryCreated:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category. Merging
    into `rest_api`, `password` or `Installation` is for admins only (401 without a token, 403 for other
    roles); a new key that differs from one of those only by case or surrounding space (`REST_API`,
    `rest_api `, `Password`) is 400, and is protected alike when sent by a non-admin (401/403).

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Client,
    body: CategoryCreate,
) -> Response[CategoryCreated]:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category. Merging
    into `rest_api`, `password` or `Installation` is for admins only (401 without a token, 403 for other
    roles); a new key that differs from one of those only by case or surrounding space (`REST_API`,
    `rest_api `, `Password`) is 400, and is protected alike when sent by a non-admin (401/403).

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[CategoryCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Client,
    body: CategoryCreate,
) -> CategoryCreated:
    """Create or merge a category

     Creates a category whose items take their default as value, writing a CONAD audit entry. On an
    existing key the request is merged: new items are added, existing items keep their current value
    while their definition is updated, and items not named stay. Returns the stored category. Merging
    into `rest_api`, `password` or `Installation` is for admins only (401 without a token, 403 for other
    roles); a new key that differs from one of those only by case or surrounding space (`REST_API`,
    `rest_api `, `Password`) is 400, and is protected alike when sent by a non-admin (401/403).

    Args:
        body (CategoryCreate): A category to create or merge into. Item definitions may come in
            `items` or in `value` (both are accepted and combined; a name in both is 400). On an
            existing key new items are added, existing items keep their current value while their
            definition is updated, and items not named stay. Example: {'key': 'pump', 'description':
            'Pump station settings', 'value': {'interval': {'description': 'Polling interval in
            seconds', 'type': 'integer', 'default': '10'}}}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        CategoryCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
