package conformance

import (
	"strings"
	"sync"
	"testing"
)

// Level says what a test checks, so that another implementation of the API
// can be measured fairly: the two levels are scored separately.
type Level string

const (
	// Seed tests check what the API specification states.
	Seed Level = "seed"
	// Strict tests check the decisions edged takes where the
	// specification is silent (status codes, error bodies, defaults,
	// limits, headers), written into the contract.
	Strict Level = "strict"
)

// suiteTest is one top-level test of the suite.
type suiteTest struct {
	name  string
	level Level
	fn    func(*testing.T)
}

// suite lists every test of the suite with its level. A test is seed only
// when all it asserts is stated by the specification; a seed test marks
// the subtests that check edged's own decisions with strictCase, or guards
// such an assertion with isStrict. `go test ./conformance` runs these
// through the wrappers of suite_test.go (one per entry, checked by
// TestSuiteWrappers); edged-conformance runs them from this list.
var suite = []suiteTest{
	// Audit
	{"TestAuditCreate", Seed, testAuditCreate},
	{"TestAuditListFilters", Seed, testAuditListFilters},
	{"TestAuditPaging", Seed, testAuditPaging},
	{"TestAuditCreateErrors", Strict, testAuditCreateErrors},
	{"TestAuditListErrors", Strict, testAuditListErrors},
	{"TestAuditCodesAndSeverities", Strict, testAuditCodesAndSeverities},
	// Configuration
	{"TestListCategories", Seed, testListCategories},
	{"TestRestAPIDefaults", Seed, testRestAPIDefaults},
	{"TestConfigChangeAuditReset", Seed, testConfigChangeAuditReset},
	{"TestConfigConchOnlyOnChange", Strict, testConfigConchOnlyOnChange},
	{"TestConfigValidValues", Strict, testConfigValidValues},
	{"TestConfigInvalidValues", Strict, testConfigInvalidValues},
	{"TestConfigSetBodyErrors", Strict, testConfigSetBodyErrors},
	{"TestConfigNotFound", Strict, testConfigNotFound},
	{"TestCreateCategory", Strict, testCreateCategory},
	{"TestCreateCategoryDisplayNameDefault", Strict, testCreateCategoryDisplayNameDefault},
	{"TestCreateCategoryMerge", Strict, testCreateCategoryMerge},
	{"TestCreateCategoryItemsAndValue", Seed, testCreateCategoryItemsAndValue},
	{"TestCreateCategoryInvalid", Strict, testCreateCategoryInvalid},
	{"TestCreateCategoryDisplayNameAlias", Strict, testCreateCategoryDisplayNameAlias},
	{"TestConfigPassword", Strict, testConfigPassword},
	{"TestLogLevelChangesLive", Strict, testLogLevelChangesLive},
	{"TestRetiredItemsRemovedAtStart", Strict, testRetiredItemsRemovedAtStart},
	{"TestConfigPathDecoding", Strict, testConfigPathDecoding},
	{"TestSetCategoryItems", Strict, testSetCategoryItems},
	{"TestFleetConfigRoundTrip", Strict, testFleetConfigRoundTrip},
	{"TestFleetConfigErrors", Strict, testFleetConfigErrors},
	{"TestCategoryTree", Strict, testCategoryTree},
	{"TestCategoryTreeErrors", Strict, testCategoryTreeErrors},
	// Tasks and schedules
	{"TestTaskPidIsTheGateway", Strict, testTaskPidIsTheGateway},
	{"TestStatsCollectionTask", Strict, testStatsCollectionTask},
	{"TestTaskErrors", Strict, testTaskErrors},
	{"TestPurgeByAge", Strict, testPurgeByAge},
	// System and statistics
	{"TestPingFields", Seed, testPingFields},
	{"TestPingServiceName", Strict, testPingServiceName},
	{"TestPingServiceDescription", Strict, testPingServiceDescription},
	{"TestMetrics", Strict, testMetrics},
	{"TestRestartOperation", Strict, testRestartOperation},
	{"TestShutdownOperation", Strict, testShutdownOperation},
	{"TestLogsServiceWarning", Strict, testLogsServiceWarning},
	{"TestLogsErrors", Strict, testLogsErrors},
	{"TestLogsRights", Strict, testLogsRights},
	// Backup and restore
	{"TestBackupLifecycle", Strict, testBackupLifecycle},
	{"TestBackupRetention", Strict, testBackupRetention},
	{"TestBackupRestore", Strict, testBackupRestore},
	{"TestBackupRestoreRefused", Strict, testBackupRestoreRefused},
	{"TestSafeMode", Strict, testSafeMode},
	{"TestStatisticsHistoryAndRates", Strict, testStatisticsHistoryAndRates},
	{"TestStatisticsRateZeroWithoutHistory", Strict, testStatisticsRateZeroWithoutHistory},
	{"TestStatisticsErrors", Strict, testStatisticsErrors},
	// Assets and readings
	{"TestAssetsUnknown", Strict, testAssetsUnknown},
	{"TestAssetQueryRules", Strict, testAssetQueryRules},
	{"TestAssetPathDecoding", Strict, testAssetPathDecoding},
	{"TestAssetReadingsData", Strict, testAssetReadingsData},
	{"TestAssetSummary", Strict, testAssetSummary},
	{"TestAssetPurgeData", Strict, testAssetPurgeData},
	{"TestAssetPurgeAllShape", Seed, testAssetPurgeAllShape},
	// Ingest through http_south, and north
	{"TestHTTPSouthRefusals", Strict, testHTTPSouthRefusals},
	{"TestHTTPSouthTimestampForms", Strict, testHTTPSouthTimestampForms},
	{"TestHTTPSouthReconfigure", Strict, testHTTPSouthReconfigure},
	{"TestHTTPSouthRefusesWhatStorageCannotHold", Strict, testHTTPSouthRefusesWhatStorageCannotHold},
	{"TestAssetCodeLimit", Strict, testAssetCodeLimit},
	{"TestKillDuringIngest", Strict, testKillDuringIngest},
	{"TestNorthServiceForwards", Strict, testNorthServiceForwards},
	{"TestNorthTask", Strict, testNorthTask},
	{"TestCreateNorthTaskErrors", Strict, testCreateNorthTaskErrors},
	{"TestNorthLossAcrossKills", Strict, testNorthLossAcrossKills},
	{"TestNorthSetsAsideRefusedReadings", Strict, testNorthSetsAsideRefusedReadings},
	{"TestSetAsideErrors", Strict, testSetAsideErrors},
	{"TestNorthDestinationFailureShowsInStatus", Strict, testNorthDestinationFailureShowsInStatus},
	{"TestRestartPersistence", Strict, testRestartPersistence},
	// Services, plugins and asset tracking
	{"TestSouthServiceLifecycle", Strict, testSouthServiceLifecycle},
	{"TestCreateServiceErrors", Strict, testCreateServiceErrors},
	{"TestServiceListings", Strict, testServiceListings},
	{"TestScheduleErrors", Strict, testScheduleErrors},
	{"TestFailedServiceHealth", Strict, testFailedServiceHealth},
	{"TestPluginData", Strict, testPluginData},
	{"TestPluginDataErrors", Strict, testPluginDataErrors},
	{"TestPluginCatalogue", Strict, testPluginCatalogue},
	{"TestDeprecateTrackingEvent", Strict, testDeprecateTrackingEvent},
	// Packages
	{"TestPackages", Strict, testPackages},
	{"TestPackageRepository", Strict, testPackageRepository},
	{"TestPackageTrust", Strict, testPackageTrust},
	{"TestPackageUnpackMemory", Strict, testPackageUnpackMemory},
	{"TestPluginWalkthrough", Strict, testPluginWalkthrough},
	// Notification and dispatcher services (packages of the repository)
	{"TestNotificationsAndControl", Strict, testNotificationsAndControl},
	{"TestControlRefusalsAudited", Strict, testControlRefusalsAudited},
	// Users and authentication
	{"TestLogin", Seed, testLogin},
	{"TestUserManagement", Seed, testUserManagement},
	{"TestUserFilters", Strict, testUserFilters},
	{"TestSessions", Strict, testSessions},
	{"TestUpdateOwnUser", Strict, testUpdateOwnUser},
	{"TestChangePassword", Strict, testChangePassword},
	{"TestPasswordPolicy", Strict, testPasswordPolicy},
	{"TestLockout", Strict, testLockout},
	{"TestLockoutBurst", Strict, testLockoutBurst},
	{"TestLDAPLogin", Strict, testLDAPLogin},
	{"TestLockoutPerClientAddress", Strict, testLockoutPerClientAddress},
	{"TestPasswordLength", Strict, testPasswordLength},
	{"TestMandatoryAuthentication", Strict, testMandatoryAuthentication},
	{"TestOptionalAuthentication", Strict, testOptionalAuthentication},
	{"TestAuthMethod", Strict, testAuthMethod},
	{"TestCertificateLogin", Strict, testCertificateLogin},
	{"TestRights", Strict, testRights},
	{"TestProtectedCategoryLookalikes", Strict, testProtectedCategoryLookalikes},
	// Filter pipelines and the protocol plugins
	{"TestFilterInstances", Strict, testFilterInstances},
	{"TestPipelineErrors", Strict, testPipelineErrors},
	{"TestSouthPipeline", Strict, testSouthPipeline},
	{"TestNorthPipeline", Strict, testNorthPipeline},
	{"TestModbusPipeline", Strict, testModbusPipeline},
	{"TestMQTTKillDuringIngest", Strict, testMQTTKillDuringIngest},
	{"TestMQTTNorth", Strict, testMQTTNorth},
	{"TestNATSNorthNodeKilled", Strict, testNATSNorthNodeKilled},
	{"TestOPCUAService", Strict, testOPCUAService},
	// The wire
	{"TestUnknownRoute", Strict, testUnknownRoute},
	{"TestMethodNotAllowed", Strict, testMethodNotAllowed},
	{"TestBodyTooLarge", Strict, testBodyTooLarge},
	{"TestMalformedBodies", Strict, testMalformedBodies},
	{"TestLenientContentTypes", Strict, testLenientContentTypes},
	{"TestCORS", Strict, testCORS},
	{"TestRequestID", Strict, testRequestID},
	{"TestNULRefused", Strict, testNULRefused},
	{"TestInvalidUTF8Refused", Strict, testInvalidUTF8Refused},
}

// suiteByName returns the entry of the suite named name.
func suiteByName(name string) (suiteTest, bool) {
	for _, s := range suite {
		if s.name == name {
			return s, true
		}
	}
	return suiteTest{}, false
}

// levels holds the level of every test and subtest that set one: the
// top-level tests from the suite list, subtests through strictCase. Any
// other subtest has its parent's level.
var levels = struct {
	mu     sync.Mutex
	byName map[string]Level
	// onMark, when set, is told of every subtest marked strict (the
	// child process of edged-conformance reports it to its parent).
	onMark func(name string)
}{byName: map[string]Level{}}

// setLevel records the level of the test named name.
func setLevel(name string, l Level) {
	levels.mu.Lock()
	defer levels.mu.Unlock()
	levels.byName[name] = l
}

// levelOf returns the level of the test or subtest named name: its own, or
// the nearest ancestor's, or, for a name outside the suite, strict.
func levelOf(name string) Level {
	levels.mu.Lock()
	defer levels.mu.Unlock()
	return levelIn(levels.byName, name)
}

// levelIn looks name up in byName as levelOf does.
func levelIn(byName map[string]Level, name string) Level {
	for n := name; ; {
		if l, ok := byName[n]; ok {
			return l
		}
		i := strings.LastIndex(n, "/")
		if i < 0 {
			return Strict
		}
		n = n[:i]
	}
}

// runLevels is the set of levels this run runs: seed and strict unless
// -level says otherwise.
var runLevels = map[Level]bool{Seed: true, Strict: true}

// strictCase marks t, a subtest of a seed test, as strict: what it checks
// is edged's decision, not the specification's. It skips t when the run
// is limited to seed tests.
func strictCase(t *testing.T) {
	t.Helper()
	track(t)
	setLevel(t.Name(), Strict)
	if levels.onMark != nil {
		levels.onMark(t.Name())
	}
	if !runLevels[Strict] {
		t.Skip("a strict case: this run checks seed tests only (-level seed)")
	}
}

// isStrict reports whether t is a strict test or subtest.
func isStrict(t testing.TB) bool { return levelOf(t.Name()) == Strict }

// strictCheck runs check as a strict subtest of t named name: a seed test
// keeps an assertion about edged's own decisions there, so that the seed
// score does not depend on it while the strict one does.
func strictCheck(t *testing.T, name string, check func(t *testing.T)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		strictCase(t)
		check(t)
	})
}

// runSuiteTest runs the suite's test named like t: the wrappers of
// suite_test.go call it, so that `go test -run` selects tests by their
// names.
func runSuiteTest(t *testing.T) {
	t.Helper()
	s, ok := suiteByName(t.Name())
	if !ok {
		t.Fatalf("%s is not in the suite list (conformance/suite.go)", t.Name())
	}
	runEntry(t, s)
}

// runEntry runs one entry of the suite as the test t.
func runEntry(t *testing.T, s suiteTest) {
	setLevel(t.Name(), s.level)
	track(t)
	if !runLevels[s.level] {
		t.Skipf("a %s test: this run checks %s tests only (-level)", s.level, otherLevel(s.level))
	}
	s.fn(t)
}

func otherLevel(l Level) Level {
	if l == Seed {
		return Strict
	}
	return Seed
}
