// Tests the package as a user gets it (`npm test`, `make test-sdk-typescript`):
// `npm pack` (which builds it, prepack), then a fresh consumer project outside
// the source tree installs the tarball, compiles with tsc --strict the
// README's examples (the code blocks marked `ts example`), the SDK's tests,
// the docs page's TypeScript request samples and a CommonJS module that
// requires the package, runs the CommonJS module, and
// runs the tests, which run the examples, against a live gateway they start
// (or EDGE_URL).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(pkgDir, "..", "..");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const run = (cmd, args, cwd, env = {}) => {
  console.log(`-- ${cmd} ${args.join(" ")}`);
  return execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } }).toString();
};

const work = mkdtempSync(join(tmpdir(), "edged-ts-consumer-"));
try {
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], pkgDir));
  const tarball = join(work, packed[0].filename);
  console.log(`packed ${packed[0].filename}: ${packed[0].files.map((f) => f.path).join(", ")}`);

  const consumer = join(work, "consumer");
  mkdirSync(join(consumer, "examples"), { recursive: true });
  mkdirSync(join(consumer, "test"));
  mkdirSync(join(consumer, "cjs"));
  writeFileSync(join(consumer, "package.json"), JSON.stringify({
    name: "edged-consumer",
    private: true,
    type: "module",
    dependencies: { "@edged/client": `file:${tarball}` },
    devDependencies: { typescript: pkg.devDependencies.typescript, "@types/node": pkg.devDependencies["@types/node"] },
  }, null, 2));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], consumer);

  const readme = readFileSync(join(consumer, "node_modules", "@edged", "client", "README.md"), "utf8");
  const examples = [...readme.matchAll(/^```ts example\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  if (examples.length === 0) throw new Error("the README has no `ts example` blocks");
  examples.forEach((code, i) => writeFileSync(join(consumer, "examples", `example_${i + 1}.ts`), code));
  for (const f of readdirSync(join(pkgDir, "test"))) copyFileSync(join(pkgDir, "test", f), join(consumer, "test", f));
  // The docs page's TypeScript request samples, compiled with the rest.
  const samples = join(work, "samples");
  run("go", ["run", "./scripts/sdkgen", "samples", "-o", join(samples, "docs.yaml"), "-check", samples, "openapi.yaml"], repo);
  mkdirSync(join(consumer, "samples"));
  copyFileSync(join(samples, "typescript", "samples.ts"), join(consumer, "samples", "samples.ts"));
  writeFileSync(join(consumer, "cjs", "require.cts"), [
    "// A CommonJS module of the consumer: the package's require entry and its types.",
    'import edged = require("@edged/client");',
    'const client: edged.EdgeClient = edged.createEdgeClient({ baseUrl: "http://localhost:8081" });',
    'const err: edged.EdgeApiError = new edged.EdgeApiError(404, "not found");',
    'if (typeof client.get !== "function" || !(err instanceof Error) || !err.isNotFound) throw new Error("require(\\"@edged/client\\") is broken");',
    'console.log("require(\\"@edged/client\\") works");',
    "",
  ].join("\n"));
  writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true,
      noUncheckedIndexedAccess: true, types: ["node"], rootDir: ".", outDir: "dist", skipLibCheck: false,
    },
    include: ["examples", "test", "cjs", "samples"],
  }, null, 2));
  run(process.execPath, [join(consumer, "node_modules", "typescript", "bin", "tsc"), "-p", consumer, "--strict"], consumer);
  process.stdout.write(run(process.execPath, [join(consumer, "dist", "cjs", "require.cjs")], consumer));
  execFileSync(process.execPath, ["--test", "--test-reporter=spec", "dist/test/"], {
    cwd: consumer, stdio: "inherit", env: { ...process.env, EDGE_REPO_ROOT: repo },
  });
} finally {
  if (process.env.EDGE_KEEP_CONSUMER) console.log(`consumer project kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
