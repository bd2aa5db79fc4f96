// Usage: node scripts/npm-installed.js [DIR]
//
// Exits 0 when DIR/node_modules (default: the current directory's) holds
// exactly the packages DIR/package-lock.json pins, as npm recorded them in
// node_modules/.package-lock.json at install time; 1 otherwise. The Makefile
// runs `npm ci` only then: comparing contents rather than file times treats
// a fresh clone, a changed lock file and a checkout newer than the install
// alike, and never reinstalls what is already there.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dir = process.argv[2] || ".";
const read = (file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")).packages;
let want;
let have;
try {
  want = read("package-lock.json");
  have = read(path.join("node_modules", ".package-lock.json"));
} catch {
  process.exit(1);
}
delete want[""]; // the project itself, which npm does not record as installed
process.exit(JSON.stringify(want) === JSON.stringify(have) ? 0 : 1);
