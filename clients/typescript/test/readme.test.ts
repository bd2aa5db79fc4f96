// The README's examples (the code blocks marked `ts example`), compiled with
// tsc --strict in the consumer project (scripts/consumer-test.mjs), run as
// they are against a live gateway.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { startGateway, type Gateway } from "./gateway.js";

const examples = join(dirname(fileURLToPath(import.meta.url)), "..", "examples");
const files = readdirSync(examples).filter((f) => f.endsWith(".js")).sort();

let gw: Gateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw?.stop();
});

test("the README has examples", () => {
  assert.ok(files.length >= 3, `examples: ${files.join(", ")}`);
});

for (const file of files) {
  test(`README ${file}`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(examples, file)], {
      env: { ...process.env, EDGE_URL: gw.url, EDGE_ADMIN_PASSWORD: gw.adminPassword },
      timeout: 120_000,
    });
    process.stdout.write(stdout);
  });
}
