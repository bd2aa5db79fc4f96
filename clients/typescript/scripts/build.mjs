// Builds the package: ECMAScript modules into dist/esm and CommonJS into
// dist/cjs, each with its .d.ts, compiled by tsc --strict. npm runs it
// before packing (prepack), so `npm pack` and `npm publish` ship a fresh
// build.
import { execFileSync } from "node:child_process";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = join(pkg, "node_modules", "typescript", "bin", "tsc");
rmSync(join(pkg, "dist"), { recursive: true, force: true });
for (const [config, out] of [["tsconfig.json", "dist/esm"], ["tsconfig.cjs.json", "dist/cjs"]]) {
  execFileSync(process.execPath, [tsc, "-p", join(pkg, config), "--strict"], { stdio: "inherit" });
  // tsc emits no .d.ts for the generated .d.ts sources: they ship as they are.
  for (const f of ["schema.d.ts", "dated.d.ts"]) copyFileSync(join(pkg, "src", f), join(pkg, out, f));
}
// The CommonJS build's .js files are CommonJS whatever the package's type.
writeFileSync(join(pkg, "dist", "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
