// The TypeScript SDK, installed from its packed tarball, against stand-in
// fetches and a live gateway (see gateway.ts). Every operation these tests
// call against the gateway is built: a 501 fails the test.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import { createEdgeClient, DEFAULT_TIMEOUT_MS, EdgeApiError, pages, unwrap, type EdgeClient } from "@edged/client";
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

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** A stand-in fetch answering in turn (the last answer repeats) and recording the requests. */
function script(...answers: (() => Response)[]) {
  const seen: { method: string; url: string; auth: string | null; body: string }[] = [];
  const fetch = async (input: Request) => {
    seen.push({ method: input.method, url: input.url, auth: input.headers.get("authorization"), body: await input.clone().text() });
    const answer = answers[Math.min(seen.length, answers.length) - 1];
    if (!answer) throw new Error("no answer scripted");
    return answer();
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

describe("client", () => {
  test("rejects a base URL that is not http(s), and negative settings", () => {
    for (const baseUrl of ["localhost:8081", "ftp://host", "not a url"]) {
      assert.throws(() => createEdgeClient({ baseUrl }), TypeError, baseUrl);
    }
    assert.throws(() => createEdgeClient({ baseUrl: "http://gw", retries: -1 }), RangeError);
    assert.throws(() => createEdgeClient({ baseUrl: "http://gw", timeoutMs: -1 }), RangeError);
  });

  test("throws a typed error for an answer outside 2xx, with the token sent", async () => {
    const s = script(() => json(404, { message: "x" }, { "x-request-id": "r1" }));
    const c = createEdgeClient({ baseUrl: "http://gw.invalid/", token: "tok", headers: { Authorization: "other" }, fetch: s.fetch });
    await assert.rejects(c.get("/edge/ping"), (e: unknown) => {
      assert.ok(e instanceof EdgeApiError);
      assert.equal(e.status, 404);
      assert.equal(e.apiMessage, "x");
      assert.equal(e.requestId, "r1");
      assert.ok(e.isNotFound);
      return true;
    });
    assert.deepEqual(s.seen.map((r) => r.auth), ["tok"]);
  });

  test("the raw client returns the answer, unwrap throws", async () => {
    const s = script(() => json(403, { message: "admin only" }));
    const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: s.fetch });
    const r = await c.raw.GET("/edge/user/role");
    assert.equal(r.response.status, 403);
    assert.equal(r.error?.message, "admin only");
    await assert.rejects(unwrap(c.raw.GET("/edge/user/role")), { name: "EdgeApiError", status: 403 });
  });

  test("renders an answer outside 2xx as the Go and Python SDKs do", async () => {
    // The cases the three SDKs' tests share (clients/testdata).
    const root = process.env.EDGE_REPO_ROOT ?? resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
    const { cases } = JSON.parse(readFileSync(join(root, "clients", "testdata", "error-answers.json"), "utf8")) as {
      cases: { name: string; status: number; headers: Record<string, string>; body: string; want: string }[];
    };
    assert.ok(cases.length > 0);
    for (const c of cases) {
      const s = script(() => new Response(c.body, { status: c.status, headers: { "content-type": "application/json", ...c.headers } }));
      const client = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: s.fetch, retries: 0 });
      await assert.rejects(client.get("/edge/ping"), (e: unknown) => {
        assert.ok(e instanceof EdgeApiError, c.name);
        assert.equal(e.message, c.want, c.name);
        assert.equal(e.status, c.status, c.name);
        return true;
      });
    }
  });

  test("turns a non-JSON error body into the message", async () => {
    const s = script(() => new Response("upstream down\n", { status: 502, statusText: "Bad Gateway" }));
    const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: s.fetch });
    await assert.rejects(c.get("/edge/ping"), { name: "EdgeApiError", status: 502, apiMessage: "upstream down" });
  });

  test("parses timestamps into Dates", async () => {
    const s = script(() => json(200, { totalCount: 1, audit: [{ timestamp: "2024-05-01 10:15:42.123", source: "LOGGN", severity: "INFORMATION", details: {} }] }));
    const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: s.fetch });
    const page = await c.get("/edge/audit");
    const ts: Date | undefined = page.audit[0]?.timestamp;
    assert.ok(ts instanceof Date);
    assert.equal(ts.toISOString(), "2024-05-01T10:15:42.123Z");
  });

  test("retries idempotent requests answered 429 or 503", async () => {
    const cases: { name: string; answers: (() => Response)[]; retries?: number; post?: boolean; want: number; fails?: number }[] = [
      { name: "503 then 200", answers: [() => json(503, { message: "busy" }, { "retry-after": "0" }), () => json(200, { value: "v" })], want: 2 },
      { name: "gives up", answers: [() => json(503, { message: "busy" }, { "retry-after": "0" })], want: 4, fails: 503 },
      { name: "retries 0", answers: [() => json(429, { message: "busy" }, { "retry-after": "0" })], retries: 0, want: 1, fails: 429 },
      { name: "Retry-After beyond the cap", answers: [() => json(503, { message: "busy" }, { "retry-after": "3600" })], want: 1, fails: 503 },
      { name: "POST is not retried", answers: [() => json(429, { message: "locked" }, { "retry-after": "0" })], post: true, want: 1, fails: 429 },
    ];
    for (const tc of cases) {
      const s = script(...tc.answers);
      const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: s.fetch, ...(tc.retries !== undefined ? { retries: tc.retries } : {}) });
      const call = tc.post
        ? c.post("/edge/login", { body: { username: "a", password: "b" } })
        : c.put("/edge/category/{name}/{item}", { params: { path: { name: "service", item: "name" } }, body: { value: "x" } });
      if (tc.fails) await assert.rejects(call, { status: tc.fails }, tc.name);
      else await call;
      assert.equal(s.seen.length, tc.want, tc.name);
      assert.ok(s.seen.every((r) => r.body === s.seen[0]?.body && r.body !== ""), `${tc.name}: the body is sent each time`);
    }
  });

  test("loginWithCertificate posts no body to /edge/authenticate and keeps the token", async () => {
    const s = script(
      () => json(200, { message: "Logged in successfully", uid: 7, token: "cert-alice", admin: false }),
      () => json(200, { uptime: 1 }),
    );
    const c = createEdgeClient({ baseUrl: "https://gw.invalid", fetch: s.fetch });
    const result = await c.loginWithCertificate();
    assert.equal(result.uid, 7);
    assert.equal(c.token, "cert-alice");
    await c.raw.GET("/edge/ping");
    assert.deepEqual(
      s.seen.map((r) => [r.method, new URL(r.url).pathname, r.body, r.auth]),
      [["POST", "/edge/authenticate", "", null], ["GET", "/edge/ping", "", "cert-alice"]],
    );
  });

  test("bounds each request by the timeout", async () => {
    assert.equal(DEFAULT_TIMEOUT_MS, 30_000);
    const hang = (async (input: Request) =>
      new Promise<Response>((_, reject) => input.signal.addEventListener("abort", () => reject(input.signal.reason)))) as typeof globalThis.fetch;
    const c = createEdgeClient({ baseUrl: "http://gw.invalid", fetch: hang, timeoutMs: 50 });
    await assert.rejects(c.get("/edge/ping"), { name: "TimeoutError" });
  });

  test("pages stops at the total or at a short page", async () => {
    for (const [total, withTotal, wantSkips] of [[7, true, [0, 3, 6]], [6, true, [0, 3]], [6, false, [0, 3, 6]], [0, true, [0]]] as const) {
      const skips: number[] = [];
      const got: number[] = [];
      for await (const n of pages(async (limit, skip) => {
        skips.push(skip);
        const items = Array.from({ length: Math.max(0, Math.min(limit, total - skip)) }, (_, i) => skip + i);
        return withTotal ? { items, total } : { items };
      }, 0, 3)) got.push(n);
      assert.deepEqual(got, Array.from({ length: total }, (_, i) => i));
      assert.deepEqual(skips, wantSkips);
    }
  });
});

describe("gateway", () => {
  test("ping", async () => {
    const ping = await edge.get("/edge/ping");
    assert.ok(ping.uptime >= 0);
    assert.ok(["green", "amber", "red"].includes(ping.health), ping.health);
    assert.ok(ping.version.length > 0);
  });

  test("read, change and reset a configuration item", async () => {
    const path = { name: "service", item: "name" };
    const before = await edge.get("/edge/category/{name}/{item}", { params: { path } });
    const value = unique("ts-sdk gateway");
    const changed = await edge.put("/edge/category/{name}/{item}", { params: { path }, body: { value } });
    assert.equal(changed.value, value);
    const category = await edge.get("/edge/category/{name}", { params: { path: { name: "service" } } });
    assert.equal(category.name?.value, value);
    const reset = await edge.delete("/edge/category/{name}/{item}/value", { params: { path } });
    assert.equal(reset.value, before.default ?? "");
  });

  test("an unknown category is a typed 404", async () => {
    const name = unique("no-such-category");
    await assert.rejects(edge.get("/edge/category/{name}", { params: { path: { name } } }), (e: unknown) => {
      assert.ok(e instanceof EdgeApiError, String(e));
      assert.equal(e.status, 404);
      assert.match(e.apiMessage, new RegExp(name));
      assert.ok(e.requestId, "the error carries the X-Request-Id");
      return true;
    });
  });

  test("create and list audit entries, every page, timestamps as Dates", async () => {
    const marker = unique("ts-sdk");
    const start = Date.now() - 5000;
    for (let n = 0; n < 5; n++) {
      const created = await edge.post("/edge/audit", { body: { source: "NTFSN", severity: "warning", details: { marker, n } } });
      assert.equal(created.severity, "WARNING");
      assert.ok(created.timestamp instanceof Date && created.timestamp.getTime() >= start);
    }
    const { totalCount } = await edge.get("/edge/audit", { params: { query: { source: "NTFSN", limit: 1 } } });
    const all = [];
    for await (const e of edge.auditEntries({ source: "NTFSN" }, { pageSize: 2 })) all.push(e);
    assert.equal(all.length, totalCount);
    const mine = all.filter((e) => (e.details as Record<string, unknown>).marker === marker).map((e) => (e.details as Record<string, unknown>).n);
    assert.deepEqual(mine, [4, 3, 2, 1, 0]);
  });

  test("tasks iterate", async () => {
    const some = [];
    for await (const t of edge.tasks({}, { pageSize: 1 })) some.push(t);
    for (const t of some) assert.ok(t.startTime instanceof Date);
  });

  test("an invalid audit entry is a typed 400", async () => {
    await assert.rejects(
      edge.post("/edge/audit", { body: { source: "LOGGN", severity: "loud", details: {} } }),
      (e: unknown) => e instanceof EdgeApiError && e.isBadRequest && e.apiMessage.length > 0,
    );
  });

  test("log in keeps the token; log out forgets it", async () => {
    const c = createEdgeClient({ baseUrl: gw.url });
    await assert.rejects(c.get("/edge/user/role"), (e: unknown) => e instanceof EdgeApiError && e.isUnauthorized);
    await assert.rejects(c.login("admin", "wrong-" + gw.adminPassword), (e: unknown) => e instanceof EdgeApiError && e.isUnauthorized);
    assert.equal(c.token, undefined);
    const login = await c.login("admin", gw.adminPassword);
    assert.equal(c.token, login.token);
    assert.equal(login.admin, true);
    const roles = await c.get("/edge/user/role");
    assert.ok(roles.roles.some((r) => r.name === "admin"));
    await c.logout();
    assert.equal(c.token, undefined);
    await assert.rejects(c.get("/edge/user/role"), (e: unknown) => e instanceof EdgeApiError && e.isUnauthorized);
  });

  test("fleet configuration: the export, and plans of the same and of another value", async () => {
    const c = createEdgeClient({ baseUrl: gw.url });
    await c.login("admin", gw.adminPassword);
    const doc = await c.get("/edge/config/export");
    assert.equal(doc.version, 1);
    assert.ok(doc.users?.some((u) => u.name === "admin"));
    const age = doc.categories?.find((x) => x.name === "PURGE_READ")?.items.age;
    assert.equal(typeof age, "string");
    const purgeAge = (value: string | { fromEnv: string }) => ({
      body: { version: 1, categories: [{ name: "PURGE_READ", items: { age: value } }] },
    });
    const same = await c.post("/edge/config/plan", purgeAge(age as string));
    assert.deepEqual(same.changes, []);
    const other = String(Number(age) + 1);
    const plan = await c.post("/edge/config/plan", purgeAge(other));
    assert.deepEqual(plan.changes, [{ action: "change", kind: "category", name: "PURGE_READ", field: "items.age", from: age, to: other }]);
    assert.deepEqual(plan.summary, { create: 0, change: 1, remove: 0 });
    await assert.rejects(
      c.post("/edge/config/plan", purgeAge({ fromEnv: "AGE" })),
      (e: unknown) => e instanceof EdgeApiError && e.isBadRequest && e.apiMessage.includes("not resolved"),
    );
  });

  test("ingest readings through an http_south service and browse them", async (t) => {
    const port = await freePort();
    const service = unique("ts-sdk-south");
    await edge.post("/edge/service", {
      body: { name: service, type: "south", plugin: "http_south", enabled: true, config: { port: { value: String(port) } } },
    });
    t.after(async () => {
      await edge.raw.DELETE("/edge/service/{service_name}", { params: { path: { service_name: service } } });
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
      const rs = await edge.get("/edge/asset/{code}", { params: { path: { code: asset } } });
      return rs.length === readings.length ? rs : undefined;
    });
    assert.deepEqual(got.map((r) => r.reading.temperature).sort(), [21.5, 22]);
    assert.deepEqual(got.map((r) => r.timestamp.toISOString()).sort(), ["2024-05-01T10:15:42.123Z", "2024-05-01T10:15:43.000Z"]);

    const listed = (await edge.get("/edge/asset")).find((a) => a.assetCode === asset);
    assert.ok(listed, `asset ${asset} listed`);
    assert.equal(listed.count, readings.length);
  });
});
