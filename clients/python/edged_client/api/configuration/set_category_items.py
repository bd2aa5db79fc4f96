from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.category import Category
from ...models.category_values import CategoryValues
from ...models.error import Error
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


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Category | Error | None:
    if response.status_code == 200:
        response_200 = Category.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Category | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: CategoryValues,
) -> Response[Category | Error]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Category | Error]
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
    client: AuthenticatedClient | Client,
    body: CategoryValues,
) -> Category | Error | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Category | Error
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: CategoryValues,
) -> Response[Category | Error]:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Category | Error]
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
    client: AuthenticatedClient | Client,
    body: CategoryValues,
) -> Category | Error | None:
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
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Category | Error
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
