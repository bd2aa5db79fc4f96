"""Contains all the data models used in inputs/outputs"""

from .access_method import AccessMethod
from .admin_user_update import AdminUserUpdate
from .admin_user_update_with_id import AdminUserUpdateWithId
from .asset_count import AssetCount
from .asset_timespan import AssetTimespan
from .asset_timespan_entry import AssetTimespanEntry
from .audit_entry import AuditEntry
from .audit_entry_create import AuditEntryCreate
from .audit_entry_create_details import AuditEntryCreateDetails
from .audit_entry_details import AuditEntryDetails
from .audit_list import AuditList
from .audit_log_code import AuditLogCode
from .audit_log_codes import AuditLogCodes
from .audit_severities import AuditSeverities
from .audit_severity import AuditSeverity
from .audit_severity_level import AuditSeverityLevel
from .audit_source import AuditSource
from .available_packages import AvailablePackages
from .available_plugins import AvailablePlugins
from .backup import Backup
from .backup_done import BackupDone
from .backup_list import BackupList
from .backup_started import BackupStarted
from .backup_status import BackupStatus
from .backup_status_entry import BackupStatusEntry
from .backup_status_list import BackupStatusList
from .category import Category
from .category_children import CategoryChildren
from .category_children_add import CategoryChildrenAdd
from .category_create import CategoryCreate
from .category_create_items import CategoryCreateItems
from .category_create_value import CategoryCreateValue
from .category_created import CategoryCreated
from .category_created_value import CategoryCreatedValue
from .category_list import CategoryList
from .category_parent import CategoryParent
from .category_summary import CategorySummary
from .category_values import CategoryValues
from .config_item import ConfigItem
from .config_item_definition import ConfigItemDefinition
from .config_item_definition_mandatory import ConfigItemDefinitionMandatory
from .config_item_definition_readonly import ConfigItemDefinitionReadonly
from .config_item_mandatory import ConfigItemMandatory
from .config_item_readonly import ConfigItemReadonly
from .config_item_type import ConfigItemType
from .config_value import ConfigValue
from .control_destination import ControlDestination
from .control_operation_request import ControlOperationRequest
from .control_operation_request_parameters import ControlOperationRequestParameters
from .control_result import ControlResult
from .control_results import ControlResults
from .control_write_request import ControlWriteRequest
from .control_write_request_values import ControlWriteRequestValues
from .create_service_action import CreateServiceAction
from .error import Error
from .filter_create_request import FilterCreateRequest
from .filter_create_request_filter_config import FilterCreateRequestFilterConfig
from .filter_instance import FilterInstance
from .filter_instance_list import FilterInstanceList
from .fleet_category import FleetCategory
from .fleet_category_definitions import FleetCategoryDefinitions
from .fleet_change import FleetChange
from .fleet_change_action import FleetChangeAction
from .fleet_change_kind import FleetChangeKind
from .fleet_changes import FleetChanges
from .fleet_changes_summary import FleetChangesSummary
from .fleet_channel import FleetChannel
from .fleet_document import FleetDocument
from .fleet_filter import FleetFilter
from .fleet_item_definition import FleetItemDefinition
from .fleet_notification import FleetNotification
from .fleet_schedule import FleetSchedule
from .fleet_secret_reference import FleetSecretReference
from .fleet_service import FleetService
from .fleet_user import FleetUser
from .fleet_values import FleetValues
from .get_asset_reading_series_group import GetAssetReadingSeriesGroup
from .history_entry import HistoryEntry
from .installed_package import InstalledPackage
from .installed_package_type import InstalledPackageType
from .installed_packages import InstalledPackages
from .installed_plugin import InstalledPlugin
from .installed_plugin_origin import InstalledPluginOrigin
from .installed_plugins import InstalledPlugins
from .installed_services import InstalledServices
from .log_entry import LogEntry
from .log_entry_attrs import LogEntryAttrs
from .log_level import LogLevel
from .log_list import LogList
from .login_request import LoginRequest
from .login_result import LoginResult
from .message import Message
from .north_list import NorthList
from .north_schedule import NorthSchedule
from .north_service import NorthService
from .north_service_type import NorthServiceType
from .north_task_create_request import NorthTaskCreateRequest
from .north_task_create_request_config import NorthTaskCreateRequestConfig
from .notification import Notification
from .notification_channel import NotificationChannel
from .notification_channel_create import NotificationChannelCreate
from .notification_channel_list import NotificationChannelList
from .notification_config_values import NotificationConfigValues
from .notification_create import NotificationCreate
from .notification_list import NotificationList
from .notification_plugin import NotificationPlugin
from .notification_plugin_type import NotificationPluginType
from .notification_plugins import NotificationPlugins
from .notification_type import NotificationType
from .notification_types import NotificationTypes
from .notification_update import NotificationUpdate
from .own_user_update import OwnUserUpdate
from .package_install_request import PackageInstallRequest
from .package_install_request_format import PackageInstallRequestFormat
from .package_log import PackageLog
from .password_change import PasswordChange
from .persistent_plugins import PersistentPlugins
from .ping import Ping
from .ping_health import PingHealth
from .pipeline import Pipeline
from .pipeline_request import PipelineRequest
from .plugin_data import PluginData
from .plugin_info import PluginInfo
from .plugin_type import PluginType
from .purged import Purged
from .reading import Reading
from .reading_reading import ReadingReading
from .reading_summary import ReadingSummary
from .reading_value import ReadingValue
from .repository_request import RepositoryRequest
from .role import Role
from .role_list import RoleList
from .schedule import Schedule
from .schedule_list import ScheduleList
from .schedule_selector import ScheduleSelector
from .schedule_status import ScheduleStatus
from .schedule_type import ScheduleType
from .series_entry import SeriesEntry
from .service_config_value import ServiceConfigValue
from .service_create_request import ServiceCreateRequest
from .service_create_request_config import ServiceCreateRequestConfig
from .service_created import ServiceCreated
from .service_list import ServiceList
from .service_record import ServiceRecord
from .service_status import ServiceStatus
from .set_aside_count import SetAsideCount
from .set_aside_list import SetAsideList
from .set_aside_reading import SetAsideReading
from .set_aside_reading_reading import SetAsideReadingReading
from .set_aside_selection import SetAsideSelection
from .south_asset import SouthAsset
from .south_list import SouthList
from .south_service import SouthService
from .statistic import Statistic
from .statistic_rates import StatisticRates
from .statistics_history import StatisticsHistory
from .statistics_rates import StatisticsRates
from .statistics_rates_rates import StatisticsRatesRates
from .summary_values import SummaryValues
from .task import Task
from .task_cancelled import TaskCancelled
from .task_list import TaskList
from .task_state import TaskState
from .tracking_event import TrackingEvent
from .tracking_event_type import TrackingEventType
from .tracking_list import TrackingList
from .update_started import UpdateStarted
from .user import User
from .user_create import UserCreate
from .user_create_access_method import UserCreateAccessMethod
from .user_list import UserList

__all__ = (
    "AccessMethod",
    "AdminUserUpdate",
    "AdminUserUpdateWithId",
    "AssetCount",
    "AssetTimespan",
    "AssetTimespanEntry",
    "AuditEntry",
    "AuditEntryCreate",
    "AuditEntryCreateDetails",
    "AuditEntryDetails",
    "AuditList",
    "AuditLogCode",
    "AuditLogCodes",
    "AuditSeverities",
    "AuditSeverity",
    "AuditSeverityLevel",
    "AuditSource",
    "AvailablePackages",
    "AvailablePlugins",
    "Backup",
    "BackupDone",
    "BackupList",
    "BackupStarted",
    "BackupStatus",
    "BackupStatusEntry",
    "BackupStatusList",
    "Category",
    "CategoryChildren",
    "CategoryChildrenAdd",
    "CategoryCreate",
    "CategoryCreated",
    "CategoryCreatedValue",
    "CategoryCreateItems",
    "CategoryCreateValue",
    "CategoryList",
    "CategoryParent",
    "CategorySummary",
    "CategoryValues",
    "ConfigItem",
    "ConfigItemDefinition",
    "ConfigItemDefinitionMandatory",
    "ConfigItemDefinitionReadonly",
    "ConfigItemMandatory",
    "ConfigItemReadonly",
    "ConfigItemType",
    "ConfigValue",
    "ControlDestination",
    "ControlOperationRequest",
    "ControlOperationRequestParameters",
    "ControlResult",
    "ControlResults",
    "ControlWriteRequest",
    "ControlWriteRequestValues",
    "CreateServiceAction",
    "Error",
    "FilterCreateRequest",
    "FilterCreateRequestFilterConfig",
    "FilterInstance",
    "FilterInstanceList",
    "FleetCategory",
    "FleetCategoryDefinitions",
    "FleetChange",
    "FleetChangeAction",
    "FleetChangeKind",
    "FleetChanges",
    "FleetChangesSummary",
    "FleetChannel",
    "FleetDocument",
    "FleetFilter",
    "FleetItemDefinition",
    "FleetNotification",
    "FleetSchedule",
    "FleetSecretReference",
    "FleetService",
    "FleetUser",
    "FleetValues",
    "GetAssetReadingSeriesGroup",
    "HistoryEntry",
    "InstalledPackage",
    "InstalledPackages",
    "InstalledPackageType",
    "InstalledPlugin",
    "InstalledPluginOrigin",
    "InstalledPlugins",
    "InstalledServices",
    "LogEntry",
    "LogEntryAttrs",
    "LoginRequest",
    "LoginResult",
    "LogLevel",
    "LogList",
    "Message",
    "NorthList",
    "NorthSchedule",
    "NorthService",
    "NorthServiceType",
    "NorthTaskCreateRequest",
    "NorthTaskCreateRequestConfig",
    "Notification",
    "NotificationChannel",
    "NotificationChannelCreate",
    "NotificationChannelList",
    "NotificationConfigValues",
    "NotificationCreate",
    "NotificationList",
    "NotificationPlugin",
    "NotificationPlugins",
    "NotificationPluginType",
    "NotificationType",
    "NotificationTypes",
    "NotificationUpdate",
    "OwnUserUpdate",
    "PackageInstallRequest",
    "PackageInstallRequestFormat",
    "PackageLog",
    "PasswordChange",
    "PersistentPlugins",
    "Ping",
    "PingHealth",
    "Pipeline",
    "PipelineRequest",
    "PluginData",
    "PluginInfo",
    "PluginType",
    "Purged",
    "Reading",
    "ReadingReading",
    "ReadingSummary",
    "ReadingValue",
    "RepositoryRequest",
    "Role",
    "RoleList",
    "Schedule",
    "ScheduleList",
    "ScheduleSelector",
    "ScheduleStatus",
    "ScheduleType",
    "SeriesEntry",
    "ServiceConfigValue",
    "ServiceCreated",
    "ServiceCreateRequest",
    "ServiceCreateRequestConfig",
    "ServiceList",
    "ServiceRecord",
    "ServiceStatus",
    "SetAsideCount",
    "SetAsideList",
    "SetAsideReading",
    "SetAsideReadingReading",
    "SetAsideSelection",
    "SouthAsset",
    "SouthList",
    "SouthService",
    "Statistic",
    "StatisticRates",
    "StatisticsHistory",
    "StatisticsRates",
    "StatisticsRatesRates",
    "SummaryValues",
    "Task",
    "TaskCancelled",
    "TaskList",
    "TaskState",
    "TrackingEvent",
    "TrackingEventType",
    "TrackingList",
    "UpdateStarted",
    "User",
    "UserCreate",
    "UserCreateAccessMethod",
    "UserList",
)
