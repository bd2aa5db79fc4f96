from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import Client
from ...models.category import Category
from ...models.category_values import CategoryValues
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: CategoryValues,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/edge/category/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client, response: httpx.Response) -> Category:
    if not 200 <= response.status_code <= 299:
        raise errors.api_error(response)
    if response.status_code == 200:
        response_200 = Category.from_dict(response.json())

        return response_200

    raise errors.UnexpectedStatus(response.status_code, response.content)


def _build_response(*, client: Client, response: httpx.Response) -> Response[Category]:
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
    name: str,
    *,
    client: Client,
    body: CategoryValues,
) -> Response[Category]:
    """Set several items of a category at once

     Sets the values of the items named in the body (item name → new value, always a string), all or
    nothing: every value is validated as by `PUT /edge/category/{name}/{item}` and, if any is refused
    (400 naming the item and the broken rule; a `readonly` item is 400 too) or names an item the
    category lacks (404), nothing is stored. Otherwise all values are stored in one transaction, a CONCH
    audit entry is written per item whose value changed, and the category's listeners are notified once.
    Returns the whole category as `GET /edge/category/{name}` does. Writes to `rest_api` and `password`
    need an admin (403).

    Args:
        name (str):
        body (CategoryValues): New values of items of one category, keyed by item name; each value
            is a string (serialized JSON for a JSON item). Example: {'age': '48', 'size': '500000'}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Category]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: Client,
    body: CategoryValues,
) -> Category:
    """Set several items of a category at once

     Sets the values of the items named in the body (item name → new value, always a string), all or
    nothing: every value is validated as by `PUT /edge/category/{name}/{item}` and, if any is refused
    (400 naming the item and the broken rule; a `readonly` item is 400 too) or names an item the
    category lacks (404), nothing is stored. Otherwise all values are stored in one transaction, a CONCH
    audit entry is written per item whose value changed, and the category's listeners are notified once.
    Returns the whole category as `GET /edge/category/{name}` does. Writes to `rest_api` and `password`
    need an admin (403).

    Args:
        name (str):
        body (CategoryValues): New values of items of one category, keyed by item name; each value
            is a string (serialized JSON for a JSON item). Example: {'age': '48', 'size': '500000'}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Category
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: Client,
    body: CategoryValues,
) -> Response[Category]:
    """Set several items of a category at once

     Sets the values of the items named in the body (item name → new value, always a string), all or
    nothing: every value is validated as by `PUT /edge/category/{name}/{item}` and, if any is refused
    (400 naming the item and the broken rule; a `readonly` item is 400 too) or names an item the
    category lacks (404), nothing is stored. Otherwise all values are stored in one transaction, a CONCH
    audit entry is written per item whose value changed, and the category's listeners are notified once.
    Returns the whole category as `GET /edge/category/{name}` does. Writes to `rest_api` and `password`
    need an admin (403).

    Args:
        name (str):
        body (CategoryValues): New values of items of one category, keyed by item name; each value
            is a string (serialized JSON for a JSON item). Example: {'age': '48', 'size': '500000'}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Response[Category]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: Client,
    body: CategoryValues,
) -> Category:
    """Set several items of a category at once

     Sets the values of the items named in the body (item name → new value, always a string), all or
    nothing: every value is validated as by `PUT /edge/category/{name}/{item}` and, if any is refused
    (400 naming the item and the broken rule; a `readonly` item is 400 too) or names an item the
    category lacks (404), nothing is stored. Otherwise all values are stored in one transaction, a CONCH
    audit entry is written per item whose value changed, and the category's listeners are notified once.
    Returns the whole category as `GET /edge/category/{name}` does. Writes to `rest_api` and `password`
    need an admin (403).

    Args:
        name (str):
        body (CategoryValues): New values of items of one category, keyed by item name; each value
            is a string (serialized JSON for a JSON item). Example: {'age': '48', 'size': '500000'}.

    Raises:
        errors.ApiError: If the gateway answers with a status outside 2xx (a subclass per status:
            NotFoundError for 404, ...), carrying its message and request id.
        httpx.TimeoutException: If the request takes longer than the client's timeout.

    Returns:
        Category
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
