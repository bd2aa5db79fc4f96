package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// fleetDoc is a configuration document as JSON, kept generic so that the
// test sends back exactly what the gateway exported.
type fleetDoc map[string]any

// exportFleet exports the configuration of the gateway under test.
func exportFleet(t *testing.T, admin string) fleetDoc {
	t.Helper()
	resp, err := apiAs(t, admin).ExportConfigWithResponse(context.Background())
	must(t, err)
	wantStatus(t, "exportConfig", resp.StatusCode(), resp.Body, http.StatusOK)
	var d fleetDoc
	if err := json.Unmarshal(resp.Body, &d); err != nil {
		t.Fatalf("exportConfig: %v; body %s", err, truncate(resp.Body))
	}
	return d
}

// withoutSecrets drops every item holding a secret reference (items a
// document does not list are left alone) and every user's password
// reference (passwords only create users), so the document can be sent
// without knowing the secrets.
func withoutSecrets(d fleetDoc) fleetDoc {
	isRef := func(v any) bool { _, ok := v.(map[string]any); return ok }
	drop := func(values any) {
		m, _ := values.(map[string]any)
		for k, v := range m {
			if isRef(v) {
				delete(m, k)
			}
		}
	}
	each := func(section string, f func(map[string]any)) {
		list, _ := d[section].([]any)
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				f(m)
			}
		}
	}
	each("categories", func(c map[string]any) { drop(c["items"]) })
	each("services", func(s map[string]any) { drop(s["config"]) })
	each("filters", func(f map[string]any) { drop(f["config"]) })
	each("notifications", func(n map[string]any) {
		drop(n["ruleConfig"])
		drop(n["deliveryConfig"])
		chs, _ := n["channels"].([]any)
		for _, c := range chs {
			if m, ok := c.(map[string]any); ok {
				drop(m["config"])
			}
		}
	})
	each("users", func(u map[string]any) { delete(u, "password") })
	return d
}

// sendFleet posts a document to plan or apply and returns the status and
// body.
func sendFleet(t *testing.T, token, verb string, doc any) (int, []byte) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := apiAs(t, token)
	if token == "" {
		c = apiAnonymous(t)
	}
	if verb == "plan" {
		resp, err := c.PlanConfigWithBodyWithResponse(context.Background(), "application/json", bytes.NewReader(b))
		must(t, err)
		return resp.StatusCode(), resp.Body
	}
	resp, err := c.ApplyConfigWithBodyWithResponse(context.Background(), "application/json", bytes.NewReader(b))
	must(t, err)
	return resp.StatusCode(), resp.Body
}

// fleetChanges plans or applies doc and returns the changes, failing the
// test unless the call succeeds and its summary counts them.
func fleetChanges(t *testing.T, admin, verb string, doc any) []edgeclient.FleetChange {
	t.Helper()
	status, body := sendFleet(t, admin, verb, doc)
	wantStatus(t, verb+"Config", status, body, http.StatusOK)
	var r edgeclient.FleetChanges
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%sConfig: %v; body %s", verb, err, truncate(body))
	}
	counts := map[edgeclient.FleetChangeAction]int{}
	for _, c := range r.Changes {
		counts[c.Action]++
	}
	if counts[edgeclient.FleetActionCreate] != int(r.Summary.Create) || counts[edgeclient.FleetActionChange] != int(r.Summary.Change) ||
		counts[edgeclient.FleetActionRemove] != int(r.Summary.Remove) {
		t.Errorf("%sConfig: summary %+v does not count the changes %s", verb, r.Summary, jsonString(r.Changes))
	}
	return r.Changes
}

// changeLines renders changes one a line for comparisons and messages.
func changeLines(cs []edgeclient.FleetChange) string {
	var lines []string
	for _, c := range cs {
		l := string(c.Action) + " " + string(c.Kind) + " " + c.Name
		if c.Field != nil {
			l += " " + *c.Field
			if c.From != nil && c.To != nil {
				l += " " + *c.From + " -> " + *c.To
			}
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

func wantChanges(t *testing.T, what string, got []edgeclient.FleetChange, want ...string) {
	t.Helper()
	if g, w := changeLines(got), strings.Join(want, "\n"); g != w {
		t.Fatalf("%s: changes\n%s\nwant\n%s", what, g, w)
	}
}

// section returns the list of section of d, for edits.
func section(d fleetDoc, name string) []any {
	l, _ := d[name].([]any)
	return l
}

// testFleetConfigRoundTrip: the exported document plans as no change; a
// changed item, a new user and a new service plan and apply as exactly
// those changes; applying again changes nothing and writes no audit entry;
// removing them from the document removes them.
func testFleetConfigRoundTrip(t *testing.T) {
	admin := adminToken(t)
	cat := unique("fleet")
	createCategory(t, edgeclient.CategoryCreate{Key: cat, Description: ptr("fleet test"), Items: &map[string]edgeclient.ConfigItemDefinition{
		"line": def(edgeclient.String, "1"), "enabled": def(edgeclient.Boolean, "false")}})

	doc := withoutSecrets(exportFleet(t, admin))
	if v, _ := doc["version"].(float64); v != 1 {
		t.Fatalf("export: version %v, want 1", doc["version"])
	}
	var found map[string]any
	for _, c := range section(doc, "categories") {
		if m := c.(map[string]any); m["name"] == cat {
			found = m
		}
	}
	if found == nil || found["definitions"] == nil {
		t.Fatalf("export: category %s missing or without definitions: %s", cat, jsonString(found))
	}
	wantChanges(t, "plan of the export", fleetChanges(t, admin, "plan", doc))

	// The same document written differently is no change: a boolean in
	// another case is the stored boolean.
	found["items"].(map[string]any)["enabled"] = "False"
	wantChanges(t, "plan of False for false", fleetChanges(t, admin, "plan", doc))

	user := strings.ReplaceAll(unique("fu"), "-", "_")
	svc := unique("fleet-svc")
	found["items"].(map[string]any)["line"] = "2"
	doc["users"] = append(section(doc, "users"), map[string]any{"name": user, "role": "view", "realName": "Fleet user",
		"password": "Fleet-Pw-1a!"})
	filter := unique("fleet-double")
	doc["filters"] = append(section(doc, "filters"), map[string]any{"name": filter, "plugin": "scale", "config": map[string]any{}})
	doc["services"] = append(section(doc, "services"), map[string]any{"name": svc, "type": "south", "plugin": "sinusoid",
		"enabled": false, "config": map[string]any{}, "pipeline": []any{filter}})
	t.Cleanup(func() {
		_, _ = apiAs(t, admin).DeleteServiceWithResponse(context.Background(), svc)
		_, _ = apiAs(t, admin).DeleteFilterWithResponse(context.Background(), filter)
		if r, err := apiAs(t, admin).ListUsersWithResponse(context.Background(), &edgeclient.ListUsersParams{Username: &user}); err == nil && r.JSON200 != nil {
			for _, u := range r.JSON200.Users {
				deleteIfExists(t, admin, u.UserId)
			}
		}
	})
	want := []string{"change category " + cat + " items.line 1 -> 2", "create user " + user, "create filter " + filter,
		"create service " + svc, "change service " + svc + " pipeline  -> " + filter}
	wantChanges(t, "plan of the edited document", fleetChanges(t, admin, "plan", doc), want...)
	if got := getItem(t, cat, "line").Value; got != "1" {
		t.Fatalf("plan wrote: line is %q", got)
	}
	wantChanges(t, "apply", fleetChanges(t, admin, "apply", doc), want...)
	if got := getItem(t, cat, "line").Value; got != "2" {
		t.Fatalf("after apply line is %q, want 2", got)
	}
	loginUser(t, user, "Fleet-Pw-1a!")

	conch, schch := auditCount(t, "CONCH"), auditCount(t, "SCHCH")
	wantChanges(t, "second apply", fleetChanges(t, admin, "apply", doc))
	if c, s := auditCount(t, "CONCH"), auditCount(t, "SCHCH"); c != conch || s != schch {
		t.Fatalf("the second apply wrote audit entries: CONCH %d → %d, SCHCH %d → %d", conch, c, schch, s)
	}

	// Exported again, the gateway gives what was applied.
	again := withoutSecrets(exportFleet(t, admin))
	wantChanges(t, "plan of the new export", fleetChanges(t, admin, "plan", again))

	// The document is the whole truth for users and services.
	keep := func(list []any, name string) []any {
		var out []any
		for _, x := range list {
			if x.(map[string]any)["name"] != name {
				out = append(out, x)
			}
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
	again["users"], again["services"] = keep(section(again, "users"), user), keep(section(again, "services"), svc)
	again["filters"] = keep(section(again, "filters"), filter)
	wantChanges(t, "apply without them", fleetChanges(t, admin, "apply", again),
		"remove service "+svc, "remove filter "+filter, "remove user "+user)
	pipe, err := apiAs(t, admin).GetFilterWithResponse(context.Background(), filter)
	must(t, err)
	checkError(t, pipe.StatusCode(), pipe.Body, http.StatusNotFound)
	resp, err := apiAs(t, admin).ListUsersWithResponse(context.Background(), &edgeclient.ListUsersParams{Username: &user})
	must(t, err)
	if resp.JSON200 != nil && len(resp.JSON200.Users) > 0 {
		t.Fatalf("user %s still exists after apply removed it", user)
	}
}

// testFleetConfigErrors: what plan and apply refuse, and who may call
// the three operations.
func testFleetConfigErrors(t *testing.T) {
	admin := adminToken(t)
	cat := unique("fleet")
	createCategory(t, edgeclient.CategoryCreate{Key: cat, Description: ptr("fleet test"), Items: &map[string]edgeclient.ConfigItemDefinition{
		"line": def(edgeclient.Integer, "1")}})
	items := func(v any) fleetDoc {
		return fleetDoc{"version": 1, "categories": []any{map[string]any{"name": cat, "items": map[string]any{"line": v}}}}
	}
	cases := []struct {
		name   string
		doc    any
		msg    string
		status int // 400 when 0
	}{
		{name: "unresolved secret reference", doc: items(map[string]any{"fromEnv": "LINE"}), msg: "not resolved"},
		{name: "other version", doc: fleetDoc{"version": 2}, msg: "version"},
		{name: "no version", doc: fleetDoc{"categories": []any{}}, msg: "version"},
		{name: "unknown item", doc: fleetDoc{"version": 1, "categories": []any{map[string]any{"name": cat, "items": map[string]any{"nope": "1"}}}}, msg: "nope"},
		{name: "invalid value", doc: items("one"), msg: "line"},
		{name: "unknown section", doc: fleetDoc{"version": 1, "plugins": []any{}}, msg: "plugins"},
		{name: "new user without password", doc: fleetDoc{"version": 1, "users": []any{
			map[string]any{"name": "admin", "role": "admin"}, map[string]any{"name": unique("nopw"), "role": "view"}}}, msg: "password"},
		{name: "unknown role", doc: fleetDoc{"version": 1, "users": []any{map[string]any{"name": "admin", "role": "boss"}}}, msg: "boss"},
		// A plugin the gateway lacks: the plan answers as the apply does,
		// so a plan that passes does not stop an apply half way.
		{name: "unknown filter plugin", doc: fleetDoc{"version": 1, "filters": []any{map[string]any{"name": unique("f"), "plugin": "no_such_filter"}}},
			msg: "no_such_filter", status: http.StatusNotFound},
	}
	for _, verb := range []string{"plan", "apply"} {
		for _, tc := range cases {
			t.Run(verb+" "+tc.name, func(t *testing.T) {
				status, body := sendFleet(t, admin, verb, tc.doc)
				want := tc.status
				if want == 0 {
					want = http.StatusBadRequest
				}
				msg := checkError(t, status, body, want)
				if isStrict(t) && !strings.Contains(msg, tc.msg) {
					t.Errorf("message %q does not name %q", msg, tc.msg)
				}
			})
		}
	}
	if got := getItem(t, cat, "line").Value; got != "1" {
		t.Fatalf("a refused apply wrote: line is %q", got)
	}

	viewer, pw := newUser(t, admin, 3, "")
	view := loginUser(t, viewer.UserName, pw).Token
	doc := fleetDoc{"version": 1}
	// Without a token the three calls answer as the other admin-only
	// calls do (the roles list): 401, or 403 where the contract gives an
	// anonymous caller of optional authentication that answer.
	roles, err := apiAnonymous(t).ListRolesWithResponse(context.Background())
	must(t, err)
	anonymous := roles.StatusCode()
	if anonymous != http.StatusUnauthorized && anonymous != http.StatusForbidden {
		t.Fatalf("anonymous listRoles answered %d", anonymous)
	}
	for _, who := range []struct {
		name, token string
		status      int
	}{{"anonymous", "", anonymous}, {"view role", view, http.StatusForbidden}} {
		t.Run(who.name, func(t *testing.T) {
			c := apiAs(t, who.token)
			if who.token == "" {
				c = apiAnonymous(t)
			}
			resp, err := c.ExportConfigWithResponse(context.Background())
			must(t, err)
			checkError(t, resp.StatusCode(), resp.Body, who.status)
			for _, verb := range []string{"plan", "apply"} {
				status, body := sendFleet(t, who.token, verb, doc)
				checkError(t, status, body, who.status)
			}
		})
	}
}

// checkFleetNotifications runs while the notification service of
// testNotificationsAndControl runs: a notification with an extra channel
// exports and plans as no change; its description, a rule value and its
// channel changed in the document plan and apply as exactly those changes,
// once; a notification added to the document is created, one left out is
// removed.
func checkFleetNotifications(t *testing.T, adminTok, tank string) {
	admin := apiAs(t, adminTok)
	name := unique("conf-fleet")
	createNotification(t, admin, notificationBody(name, "one shot", "webhook", tank, map[string]string{"url": "http://127.0.0.1:9/none"}))
	ch, err := admin.AddNotificationChannelWithResponse(t.Context(), name, edgeclient.NotificationChannelCreate{Name: "log", Plugin: "asset",
		Config: &edgeclient.NotificationConfigValues{"asset": unique("conf-fleet-log")}})
	must(t, err)
	wantStatus(t, "addNotificationChannel", ch.StatusCode(), ch.Body, http.StatusOK)

	doc := withoutSecrets(exportFleet(t, adminTok))
	var mine map[string]any
	for _, n := range section(doc, "notifications") {
		if m := n.(map[string]any); m["name"] == name {
			mine = m
		}
	}
	if mine == nil || mine["rule"] != "threshold" || mine["channel"] != "webhook" || len(mine["channels"].([]any)) != 1 {
		t.Fatalf("exported notification: %s", jsonString(mine))
	}
	wantChanges(t, "plan of the export", fleetChanges(t, adminTok, "plan", doc))

	copyName := unique("conf-fleet-copy")
	copied := map[string]any{}
	for k, v := range mine {
		copied[k] = v
	}
	copied["name"], copied["channels"] = copyName, []any{}
	t.Cleanup(func() { _, _ = admin.DeleteNotificationWithResponse(context.Background(), copyName) })
	mine["description"] = "changed by a document"
	mine["ruleConfig"].(map[string]any)["value"] = "60"
	mine["channels"] = []any{}
	doc["notifications"] = append(section(doc, "notifications"), copied)
	want := []string{"change notification " + name + " description  -> changed by a document",
		"change notification " + name + " ruleConfig.value 50 -> 60", "remove channel " + name + "/log",
		"create notification " + copyName}
	wantChanges(t, "plan", fleetChanges(t, adminTok, "plan", doc), want...)
	wantChanges(t, "apply", fleetChanges(t, adminTok, "apply", doc), want...)
	wantChanges(t, "second apply", fleetChanges(t, adminTok, "apply", doc))
	got, err := admin.GetNotificationWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "getNotification", got.StatusCode(), got.Body, http.StatusOK)
	if n := got.JSON200; n.Description != "changed by a document" || n.RuleConfig["value"].Value != "60" || len(n.Channels) != 0 {
		t.Errorf("after apply: %s", truncate(got.Body))
	}

	var rest []any
	for _, n := range section(doc, "notifications") {
		if n.(map[string]any)["name"] != name {
			rest = append(rest, n)
		}
	}
	doc["notifications"] = rest
	wantChanges(t, "apply without it", fleetChanges(t, adminTok, "apply", doc), "remove notification "+name)
	gone, err := admin.GetNotificationWithResponse(t.Context(), name)
	must(t, err)
	checkError(t, gone.StatusCode(), gone.Body, http.StatusNotFound)
}
