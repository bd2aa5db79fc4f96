// Builds the console into an output directory (default
// ../../internal/portal/console, which the gateway embeds): index.html,
// console.js (the TypeScript bundled with the SDK and uPlot, minified) and
// console.css. The TypeScript is type-checked first (tsc --strict). The
// SDK is used as users install it: its package's built output (dist/),
// which this script builds first. Output is deterministic, so make
// check-generated can compare a fresh build with the committed one.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "../../internal/portal/console"));
const sdk = join(here, "../../clients/typescript");

execFileSync(process.execPath, [join(sdk, "scripts/build.mjs")], { stdio: "inherit" });
execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", here], { stdio: "inherit" });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { console: join(here, "src/main.ts") },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(join(here, "index.html"), join(out, "index.html"));

// The size report: raw and gzipped bytes of each file.
const sizes = ["index.html", "console.js", "console.css"].map((f) => {
  const b = readFileSync(join(out, f));
  return { file: f, bytes: b.length, gzip: gzipSync(b, { level: 9 }).length };
});
writeFileSync(join(out, "sizes.json"), JSON.stringify(sizes, null, 2) + "\n");
const total = sizes.reduce((n, s) => n + s.gzip, 0);
console.log(`console built in ${out}: ${sizes.map((s) => `${s.file} ${s.bytes} B (${s.gzip} B gzipped)`).join(", ")}; ${total} B gzipped in all`);
