// A gateway for the tests: EDGE_URL names a running one (its admin password
// in EDGE_ADMIN_PASSWORD); otherwise cmd/edged is built with `go build` and
// started on a temporary data directory and a free port.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A gateway the tests talk to. */
export interface Gateway {
  url: string;
  adminPassword: string;
  stop(): Promise<void>;
}

// The tests run compiled, in a consumer project outside the source tree
// (scripts/consumer-test.mjs), which names the repository in EDGE_REPO_ROOT.
const repoRoot = process.env.EDGE_REPO_ROOT ?? resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

/** Returns a port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === "object" ? ok(addr.port) : fail(new Error("no port"))));
    });
  });
}

/** Polls `check` every 50 ms until it returns a value or `ms` pass. */
export async function eventually<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${String(last)})` : ""}`);
}

/** Starts (or names) the gateway of the test run. */
export async function startGateway(): Promise<Gateway> {
  const external = process.env.EDGE_URL;
  if (external) {
    return { url: external.replace(/\/+$/, ""), adminPassword: process.env.EDGE_ADMIN_PASSWORD ?? "", stop: async () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), "edged-ts-sdk-"));
  const bin = join(dir, "edged");
  execFileSync("go", ["build", "-o", bin, "./cmd/edged"], {
    cwd: repoRoot,
    env: { ...process.env, CGO_ENABLED: "0" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const port = await freePort();
  const adminPassword = "Ts-Sdk-Passw0rd!";
  const logPath = join(dir, "edged.log");
  const log = openSync(logPath, "a");
  const child: ChildProcess = spawn(bin, ["--data", join(dir, "data"), "--port", String(port)], {
    env: { ...process.env, EDGE_ADMIN_PASSWORD: adminPassword },
    stdio: ["ignore", log, log],
  });
  let exited = false;
  const exit = new Promise<void>((r) => child.once("exit", () => { exited = true; r(); }));
  const url = `http://127.0.0.1:${port}`;
  const dumpLog = () => process.stderr.write(`--- edged log ---\n${readFileSync(logPath, "utf8")}\n--- end ---\n`);
  try {
    await eventually("edged answering ping", 30_000, async () => {
      if (exited) throw new Error("edged exited");
      const r = await fetch(`${url}/edge/ping`);
      return r.ok ? true : undefined;
    });
  } catch (e) {
    child.kill("SIGKILL");
    dumpLog();
    throw e;
  }
  return {
    url,
    adminPassword,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        await exit;
        clearTimeout(timer);
      }
      if (process.env.EDGE_KEEP_LOG) dumpLog();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
