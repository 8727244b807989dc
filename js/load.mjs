// Loads the Node build of the package: ../node/ inside the npm package, ../pkg/node/ in
// the repository.
import { createRequire } from "node:module";
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export function loadPackage() {
  const candidates = [join(here, "..", "node", "evidence_check.js"), join(here, "..", "pkg", "node", "evidence_check.js")];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    const err = new Error("the WebAssembly package is not built (looked for " + candidates.join(", ") + "); run `make build`");
    err.code = "package_missing";
    throw err;
  }
  return require(found);
}

/** The largest input file read: the core's default `maxInputBytes` (16 MiB). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

function inputError(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

function kindOf(st) {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Reads an input file as UTF-8, refusing invalid bytes rather than replacing them. It
 * opens without blocking and stats the open file first: anything but a regular file
 * (a device such as /dev/zero, a FIFO) is refused unread, and at most `limit` + 1 bytes
 * are ever read.
 */
export function readInputFile(path, limit = MAX_INPUT_BYTES) {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw inputError("not_a_file", `${path} is ${kindOf(st)}, not a regular file; it was not read`);
    const tooLarge = (what) => inputError("input_too_large", `${path} is ${what} bytes, over the limit of ${limit} bytes; it was not read`);
    if (st.size > limit) throw tooLarge(st.size);
    // The stat'ed size plus one in the first read; a file that grows meanwhile is read on, to the limit.
    const chunks = [];
    let n = 0;
    while (n <= limit) {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(st.size + 1 - n, 65536), limit + 1 - n));
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      chunks.push(buf.subarray(0, got));
      n += got;
    }
    if (n > limit) throw tooLarge(`more than ${limit}`);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks, n));
    } catch {
      throw inputError("invalid_utf8", `${path} is not valid UTF-8`);
    }
  } finally {
    closeSync(fd);
  }
}

export { STATUS_MEANING, STATUS_EXIT } from "./status.mjs";
