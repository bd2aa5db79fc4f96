from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset
from ..types import model_repr as _model_repr

if TYPE_CHECKING:
    from ..models.fleet_category import FleetCategory
    from ..models.fleet_filter import FleetFilter
    from ..models.fleet_notification import FleetNotification
    from ..models.fleet_schedule import FleetSchedule
    from ..models.fleet_service import FleetService
    from ..models.fleet_user import FleetUser


T = TypeVar("T", bound="FleetDocument")


@_attrs_define
class FleetDocument:
    """A gateway's configuration (see `GET /edge/config/export`). An absent section is not managed; a present one is the
    whole truth for its kind.

        Attributes:
            version (int): The document format's version; this gateway reads 1. Example: 1.
            categories (list[FleetCategory] | Unset):
            services (list[FleetService] | Unset):
            filters (list[FleetFilter] | Unset):
            notifications (list[FleetNotification] | Unset):
            schedules (list[FleetSchedule] | Unset):
            users (list[FleetUser] | Unset):
    """

    version: int
    categories: list[FleetCategory] | Unset = UNSET
    services: list[FleetService] | Unset = UNSET
    filters: list[FleetFilter] | Unset = UNSET
    notifications: list[FleetNotification] | Unset = UNSET
    schedules: list[FleetSchedule] | Unset = UNSET
    users: list[FleetUser] | Unset = UNSET

    def __repr__(self) -> str:
        # The fields that are set: an unset field is not shown as UNSET.
        return _model_repr(self)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        categories: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = []
            for categories_item_data in self.categories:
                categories_item = categories_item_data.to_dict()
                categories.append(categories_item)

        services: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.services, Unset):
            services = []
            for services_item_data in self.services:
                services_item = services_item_data.to_dict()
                services.append(services_item)

        filters: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = []
            for filters_item_data in self.filters:
                filters_item = filters_item_data.to_dict()
                filters.append(filters_item)

        notifications: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.notifications, Unset):
            notifications = []
            for notifications_item_data in self.notifications:
                notifications_item = notifications_item_data.to_dict()
                notifications.append(notifications_item)

        schedules: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.schedules, Unset):
            schedules = []
            for schedules_item_data in self.schedules:
                schedules_item = schedules_item_data.to_dict()
                schedules.append(schedules_item)

        users: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.users, Unset):
            users = []
            for users_item_data in self.users:
                users_item = users_item_data.to_dict()
                users.append(users_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "version": version,
            }
        )
        if categories is not UNSET:
            field_dict["categories"] = categories
        if services is not UNSET:
            field_dict["services"] = services
        if filters is not UNSET:
            field_dict["filters"] = filters
        if notifications is not UNSET:
            field_dict["notifications"] = notifications
        if schedules is not UNSET:
            field_dict["schedules"] = schedules
        if users is not UNSET:
            field_dict["users"] = users

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_category import FleetCategory  # noqa: PLC0415
        from ..models.fleet_filter import FleetFilter  # noqa: PLC0415
        from ..models.fleet_notification import FleetNotification  # noqa: PLC0415
        from ..models.fleet_schedule import FleetSchedule  # noqa: PLC0415
        from ..models.fleet_service import FleetService  # noqa: PLC0415
        from ..models.fleet_user import FleetUser  # noqa: PLC0415

        d = dict(src_dict)
        version = d.pop("version")

        _categories = d.pop("categories", UNSET)
        categories: list[FleetCategory] | Unset = UNSET
        if _categories is not UNSET:
            categories = []
            for categories_item_data in _categories:
                categories_item = FleetCategory.from_dict(categories_item_data)

                categories.append(categories_item)

        _services = d.pop("services", UNSET)
        services: list[FleetService] | Unset = UNSET
        if _services is not UNSET:
            services = []
            for services_item_data in _services:
                services_item = FleetService.from_dict(services_item_data)

                services.append(services_item)

        _filters = d.pop("filters", UNSET)
        filters: list[FleetFilter] | Unset = UNSET
        if _filters is not UNSET:
            filters = []
            for filters_item_data in _filters:
                filters_item = FleetFilter.from_dict(filters_item_data)

                filters.append(filters_item)

        _notifications = d.pop("notifications", UNSET)
        notifications: list[FleetNotification] | Unset = UNSET
        if _notifications is not UNSET:
            notifications = []
            for notifications_item_data in _notifications:
                notifications_item = FleetNotification.from_dict(notifications_item_data)

                notifications.append(notifications_item)

        _schedules = d.pop("schedules", UNSET)
        schedules: list[FleetSchedule] | Unset = UNSET
        if _schedules is not UNSET:
            schedules = []
            for schedules_item_data in _schedules:
                schedules_item = FleetSchedule.from_dict(schedules_item_data)

                schedules.append(schedules_item)

        _users = d.pop("users", UNSET)
        users: list[FleetUser] | Unset = UNSET
        if _users is not UNSET:
            users = []
            for users_item_data in _users:
                users_item = FleetUser.from_dict(users_item_data)

                users.append(users_item)

        _obj = cls(
            version=version,
            categories=categories,
            services=services,
            filters=filters,
            notifications=notifications,
            schedules=schedules,
            users=users,
        )

        return _obj
