// The TypeScript SDK against a live gateway (see gateway.ts). Every
// operation these tests call is built: a 501 fails the test.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";

import { createEdgeClient, EdgeApiError, unwrap, type EdgeClient } from "../src/index.js";
import { eventually, freePort, startGateway, type Gateway } from "./gateway.js";

let gw: Gateway;
let edge: EdgeClient;

before(async () => {
  gw = await startGateway();
  edge = createEdgeClient({ baseUrl: gw.url });
});

after(async () => {
  await gw?.stop();
});

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe("client", () => {
  test("rejects a base URL that is not http(s)", () => {
    for (const baseUrl of ["localhost:8081", "ftp://host", "not a url"]) {
      assert.throws(() => createEdgeClient({ baseUrl }), TypeError, baseUrl);
    }
  });

  test("sends the token in the authorization header", async () => {
    const seen: (string | null)[] = [];
    const fake: typeof fetch = async (input) => {
      seen.push((input as Request).headers.get("authorization"));
      return new Response(JSON.stringify({ message: "x" }), { status: 404, headers: { "content-type": "application/json", "x-request-id": "r1" } });
    };
    const c = createEdgeClient({ baseUrl: "http://gw.invalid/", token: "tok", headers: { Authorization: "other" }, fetch: fake });
    await assert.rejects(unwrap(c.GET("/edge/ping")), (e: unknown) => {
      assert.ok(e instanceof EdgeApiError);
      assert.equal(e.status, 404);
      assert.equal(e.apiMessage, "x");
      assert.equal(e.requestId, "r1");
      assert.ok(e.isNotFound);
      return true;
    });
    assert.deepEqual(seen, ["tok"]);
  });

  test("turns a non-JSON error body into the message", async () => {
    const fake: typeof fetch = async () => new Response("upstream down\n", { status: 502, statusText: "Bad Gateway" });
    const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: fake });
    await assert.rejects(unwrap(c.GET("/edge/ping")), { name: "EdgeApiError", status: 502, apiMessage: "upstream down" });
  });
});

describe("gateway", () => {
  test("ping", async () => {
    const ping = await unwrap(edge.GET("/edge/ping"));
    assert.ok(ping.uptime >= 0);
    assert.ok(["green", "amber", "red"].includes(ping.health), ping.health);
    assert.ok(ping.version.length > 0);
  });

  test("read, change and reset a configuration item", async () => {
    const path = { name: "service", item: "name" };
    const before = await unwrap(edge.GET("/edge/category/{name}/{item}", { params: { path } }));
    const value = unique("ts-sdk gateway");
    const changed = await unwrap(edge.PUT("/edge/category/{name}/{item}", { params: { path }, body: { value } }));
    assert.equal(changed.value, value);
    const category = await unwrap(edge.GET("/edge/category/{name}", { params: { path: { name: "service" } } }));
    assert.equal(category.name?.value, value);
    const reset = await unwrap(edge.DELETE("/edge/category/{name}/{item}/value", { params: { path } }));
    assert.equal(reset.value, before.default ?? "");
    const after = await unwrap(edge.GET("/edge/category/{name}/{item}", { params: { path } }));
    assert.equal(after.value, before.default ?? "");
  });

  test("an unknown category is a typed 404", async () => {
    const name = unique("no-such-category");
    await assert.rejects(unwrap(edge.GET("/edge/category/{name}", { params: { path: { name } } })), (e: unknown) => {
      assert.ok(e instanceof EdgeApiError, String(e));
      assert.equal(e.status, 404);
      assert.ok(e.isNotFound);
      assert.match(e.apiMessage, new RegExp(name));
      assert.ok(e.requestId, "the error carries the X-Request-Id");
      return true;
    });
  });

  test("create and list audit entries", async () => {
    const marker = unique("ts-sdk");
    await unwrap(edge.POST("/edge/audit", { body: { source: "LOGGN", severity: "warning", details: { marker } } }));
    const page = await unwrap(edge.GET("/edge/audit", { params: { query: { source: "LOGGN", limit: 100 } } }));
    const mine = page.audit.find((e) => (e.details as Record<string, unknown>).marker === marker);
    assert.ok(mine, `entry ${marker} listed`);
    assert.equal(mine.severity, "WARNING");
    assert.ok(page.totalCount >= 1);
  });

  test("an invalid audit entry is a typed 400", async () => {
    await assert.rejects(
      unwrap(edge.POST("/edge/audit", { body: { source: "LOGGN", severity: "loud", details: {} } })),
      (e: unknown) => e instanceof EdgeApiError && e.isBadRequest && e.apiMessage.length > 0,
    );
  });

  test("log in as admin", async () => {
    const login = await unwrap(edge.POST("/edge/login", { body: { username: "admin", password: gw.adminPassword } }));
    assert.ok(login.token.length > 0);
    assert.equal(login.admin, true);

    const admin = createEdgeClient({ baseUrl: gw.url, token: login.token });
    await unwrap(admin.GET("/edge/ping"));

    await assert.rejects(
      unwrap(edge.POST("/edge/login", { body: { username: "admin", password: "wrong-" + gw.adminPassword } })),
      (e: unknown) => e instanceof EdgeApiError && e.isUnauthorized,
    );
    await unwrap(admin.PUT("/edge/logout"));
  });

  test("ingest readings through an http_south service and browse them", async (t) => {
    const port = await freePort();
    const service = unique("ts-sdk-south");
    await unwrap(
      edge.POST("/edge/service", {
        body: { name: service, type: "south", plugin: "http_south", enabled: true, config: { port: { value: String(port) } } },
      }),
    );
    t.after(async () => {
      await edge.DELETE("/edge/service/{service_name}", { params: { path: { service_name: service } } });
    });

    const asset = unique("ts-sdk-asset");
    const readings = [
      { timestamp: "2024-05-01 10:15:42.123456", asset, readings: { temperature: 21.5 } },
      { timestamp: "2024-05-01T10:15:43Z", asset, readings: { temperature: 22 } },
    ];
    // The service starts in the background: post until it listens.
    await eventually("http_south accepting readings", 30_000, async () => {
      const r = await fetch(`http://127.0.0.1:${port}/sensor-reading`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(readings),
      });
      assert.ok(r.ok, `http_south answered ${r.status}`);
      return true;
    });

    // Readings reach storage asynchronously.
    const got = await eventually("the readings in storage", 30_000, async () => {
      const rs = await unwrap(edge.GET("/edge/asset/{code}", { params: { path: { code: asset } } }));
      return rs.length === readings.length ? rs : undefined;
    });
    assert.deepEqual(got.map((r) => r.reading.temperature).sort(), [21.5, 22]);

    const listed = (await unwrap(edge.GET("/edge/asset"))).find((a) => a.assetCode === asset);
    assert.ok(listed, `asset ${asset} listed`);
    assert.equal(listed.count, readings.length);
  });
});
