// Shared set-up for the Node tests: the built package installed as a user would
// install it (node_modules/evidence-check in a temporary project).
import { mkdtempSync, mkdirSync, symlinkSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const PKG = join(ROOT, "pkg");
export const NOW = "2026-11-29T00:00:00+00:00";

/** A temporary project with node_modules/evidence-check -> pkg/. */
export function userProject() {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-user-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(PKG, join(dir, "node_modules", "evidence-check"), "dir");
  return dir;
}

/** `require` from inside a user's project. */
export function userRequire(dir) {
  return createRequire(join(dir, "index.js"));
}

export function readJson(...parts) {
  return JSON.parse(readFileSync(join(ROOT, ...parts), "utf8"));
}
