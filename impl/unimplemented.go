package impl

import (
	"context"

	"github.com/edged/edged/gen"
)

// The operations below are routed and validated but not built yet: each
// answers 501 with a JSON message naming the operation. They are listed in
// the README and disappear from this file as they are built.

// ListNorthServices (GET /edge/north) is not implemented yet.
func (s *Server) ListNorthServices(context.Context, gen.ListNorthServicesRequestObject) (gen.ListNorthServicesResponseObject, error) {
	return nil, notImplemented("listNorthServices")
}

// SetRepository (POST /edge/repository) is not implemented yet.
func (s *Server) SetRepository(context.Context, gen.SetRepositoryRequestObject) (gen.SetRepositoryResponseObject, error) {
	return nil, notImplemented("setRepository")
}

// Restart (PUT /edge/restart) is not implemented yet.
func (s *Server) Restart(context.Context, gen.RestartRequestObject) (gen.RestartResponseObject, error) {
	return nil, notImplemented("restart")
}

// ListSchedules (GET /edge/schedule) is not implemented yet.
func (s *Server) ListSchedules(context.Context, gen.ListSchedulesRequestObject) (gen.ListSchedulesResponseObject, error) {
	return nil, notImplemented("listSchedules")
}

// DisableScheduleByName (PUT /edge/schedule/disable) is not implemented yet.
func (s *Server) DisableScheduleByName(context.Context, gen.DisableScheduleByNameRequestObject) (gen.DisableScheduleByNameResponseObject, error) {
	return nil, notImplemented("disableScheduleByName")
}

// EnableScheduleByName (PUT /edge/schedule/enable) is not implemented yet.
func (s *Server) EnableScheduleByName(context.Context, gen.EnableScheduleByNameRequestObject) (gen.EnableScheduleByNameResponseObject, error) {
	return nil, notImplemented("enableScheduleByName")
}

// GetSchedule (GET /edge/schedule/{schedule_id}) is not implemented yet.
func (s *Server) GetSchedule(context.Context, gen.GetScheduleRequestObject) (gen.GetScheduleResponseObject, error) {
	return nil, notImplemented("getSchedule")
}

// DisableSchedule (PUT /edge/schedule/{schedule_id}/disable) is not implemented yet.
func (s *Server) DisableSchedule(context.Context, gen.DisableScheduleRequestObject) (gen.DisableScheduleResponseObject, error) {
	return nil, notImplemented("disableSchedule")
}

// EnableSchedule (PUT /edge/schedule/{schedule_id}/enable) is not implemented yet.
func (s *Server) EnableSchedule(context.Context, gen.EnableScheduleRequestObject) (gen.EnableScheduleResponseObject, error) {
	return nil, notImplemented("enableSchedule")
}

// ListServices (GET /edge/service) is not implemented yet.
func (s *Server) ListServices(context.Context, gen.ListServicesRequestObject) (gen.ListServicesResponseObject, error) {
	return nil, notImplemented("listServices")
}

// CreateService (POST /edge/service) is not implemented yet.
func (s *Server) CreateService(context.Context, gen.CreateServiceRequestObject) (gen.CreateServiceResponseObject, error) {
	return nil, notImplemented("createService")
}

// ListAvailablePackages (GET /edge/service/available) is not implemented yet.
func (s *Server) ListAvailablePackages(context.Context, gen.ListAvailablePackagesRequestObject) (gen.ListAvailablePackagesResponseObject, error) {
	return nil, notImplemented("listAvailablePackages")
}

// ListInstalledServices (GET /edge/service/installed) is not implemented yet.
func (s *Server) ListInstalledServices(context.Context, gen.ListInstalledServicesRequestObject) (gen.ListInstalledServicesResponseObject, error) {
	return nil, notImplemented("listInstalledServices")
}

// DeleteService (DELETE /edge/service/{service_name}) is not implemented yet.
func (s *Server) DeleteService(context.Context, gen.DeleteServiceRequestObject) (gen.DeleteServiceResponseObject, error) {
	return nil, notImplemented("deleteService")
}

// ListPersistentPlugins (GET /edge/service/{service_name}/persist) is not implemented yet.
func (s *Server) ListPersistentPlugins(context.Context, gen.ListPersistentPluginsRequestObject) (gen.ListPersistentPluginsResponseObject, error) {
	return nil, notImplemented("listPersistentPlugins")
}

// DeletePluginData (DELETE /edge/service/{service_name}/plugin/{plugin_name}/data) is not implemented yet.
func (s *Server) DeletePluginData(context.Context, gen.DeletePluginDataRequestObject) (gen.DeletePluginDataResponseObject, error) {
	return nil, notImplemented("deletePluginData")
}

// GetPluginData (GET /edge/service/{service_name}/plugin/{plugin_name}/data) is not implemented yet.
func (s *Server) GetPluginData(context.Context, gen.GetPluginDataRequestObject) (gen.GetPluginDataResponseObject, error) {
	return nil, notImplemented("getPluginData")
}

// SetPluginData (POST /edge/service/{service_name}/plugin/{plugin_name}/data) is not implemented yet.
func (s *Server) SetPluginData(context.Context, gen.SetPluginDataRequestObject) (gen.SetPluginDataResponseObject, error) {
	return nil, notImplemented("setPluginData")
}

// Shutdown (PUT /edge/shutdown) is not implemented yet.
func (s *Server) Shutdown(context.Context, gen.ShutdownRequestObject) (gen.ShutdownResponseObject, error) {
	return nil, notImplemented("shutdown")
}

// ListSouthServices (GET /edge/south) is not implemented yet.
func (s *Server) ListSouthServices(context.Context, gen.ListSouthServicesRequestObject) (gen.ListSouthServicesResponseObject, error) {
	return nil, notImplemented("listSouthServices")
}

// ListStatistics (GET /edge/statistics) is not implemented yet.
func (s *Server) ListStatistics(context.Context, gen.ListStatisticsRequestObject) (gen.ListStatisticsResponseObject, error) {
	return nil, notImplemented("listStatistics")
}

// GetStatisticsHistory (GET /edge/statistics/history) is not implemented yet.
func (s *Server) GetStatisticsHistory(context.Context, gen.GetStatisticsHistoryRequestObject) (gen.GetStatisticsHistoryResponseObject, error) {
	return nil, notImplemented("getStatisticsHistory")
}

// GetStatisticsRate (GET /edge/statistics/rate) is not implemented yet.
func (s *Server) GetStatisticsRate(context.Context, gen.GetStatisticsRateRequestObject) (gen.GetStatisticsRateResponseObject, error) {
	return nil, notImplemented("getStatisticsRate")
}

// ListTasks (GET /edge/task) is not implemented yet.
func (s *Server) ListTasks(context.Context, gen.ListTasksRequestObject) (gen.ListTasksResponseObject, error) {
	return nil, notImplemented("listTasks")
}

// ListLatestTasks (GET /edge/task/latest) is not implemented yet.
func (s *Server) ListLatestTasks(context.Context, gen.ListLatestTasksRequestObject) (gen.ListLatestTasksResponseObject, error) {
	return nil, notImplemented("listLatestTasks")
}

// GetTask (GET /edge/task/{id}) is not implemented yet.
func (s *Server) GetTask(context.Context, gen.GetTaskRequestObject) (gen.GetTaskResponseObject, error) {
	return nil, notImplemented("getTask")
}

// CancelTask (PUT /edge/task/{id}/cancel) is not implemented yet.
func (s *Server) CancelTask(context.Context, gen.CancelTaskRequestObject) (gen.CancelTaskResponseObject, error) {
	return nil, notImplemented("cancelTask")
}

// ListTrackingEvents (GET /edge/track) is not implemented yet.
func (s *Server) ListTrackingEvents(context.Context, gen.ListTrackingEventsRequestObject) (gen.ListTrackingEventsResponseObject, error) {
	return nil, notImplemented("listTrackingEvents")
}

// DeprecateTrackingEvent (PUT /edge/track/service/{service_name}/asset/{asset_name}/event/{event_name}) is not implemented yet.
func (s *Server) DeprecateTrackingEvent(context.Context, gen.DeprecateTrackingEventRequestObject) (gen.DeprecateTrackingEventResponseObject, error) {
	return nil, notImplemented("deprecateTrackingEvent")
}

// UpdatePackages (PUT /edge/update) is not implemented yet.
func (s *Server) UpdatePackages(context.Context, gen.UpdatePackagesRequestObject) (gen.UpdatePackagesResponseObject, error) {
	return nil, notImplemented("updatePackages")
}
