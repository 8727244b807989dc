// The page's local server (js/serve.mjs): a malformed URL is a 400, and the server keeps serving.
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./helpers.mjs";

/** A raw GET (fetch would normalise the path). */
function get(url, path) {
  return new Promise((ok, fail) => {
    const { hostname, port } = new URL(url);
    const req = request({ hostname, port, path, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => ok(res.statusCode));
    });
    req.on("error", fail);
    req.end();
  });
}

test("GET /pkg/%E0%A4%A is a 400 and the server keeps serving", async () => {
  // In its own process: a URIError thrown in the handler ended the whole process.
  const child = spawn(process.execPath, [join(ROOT, "js", "serve.mjs"), "0"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const url = await new Promise((ok, fail) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /(http:\/\/\S+\/)/.exec(out);
        if (m) ok(m[1]);
      });
      child.on("exit", (code) => fail(new Error(`serve.mjs exited with ${code}`)));
    });
    assert.equal(await get(url, "/pkg/%E0%A4%A"), 400);
    assert.equal(await get(url, "/examples/%E0%A4%A"), 400);
    assert.equal(await get(url, "/"), 200);
    assert.equal(await get(url, "/pkg/no-such-file.js"), 404);
    assert.equal(child.exitCode, null, "still running");
  } finally {
    child.kill();
  }
});
