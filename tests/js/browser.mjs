// Shared by the doc runner and the bundler tests: a static server on 127.0.0.1 over a
// set of routes (URL prefix -> directory, or exact path -> text), and Debian's Chromium
// through playwright-core.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { chromium } from "playwright-core";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".md": "text/markdown; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Serves `routes`: `{"/prefix/": "/a/directory", "/exact.html": {type, body}}`. Resolves to
 * `{url, requests, close}`; `requests` lists every path asked for with its status.
 */
export function serveStatic(routes) {
  const requests = [];
  const server = createServer(async (req, res) => {
    let status = 404;
    let path = "";
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
      const exact = routes[path];
      if (exact && typeof exact === "object") {
        status = 200;
        res.writeHead(200, { "content-type": exact.type }).end(exact.body);
        return;
      }
      for (const [prefix, dir] of Object.entries(routes)) {
        if (typeof dir !== "string" || !prefix.endsWith("/") || !path.startsWith(prefix)) continue;
        const file = resolve(dir, path.slice(prefix.length) || "index.html");
        if (file !== dir && !file.startsWith(dir + sep)) break;
        const body = await readFile(file).catch(() => null);
        if (body === null) continue;
        status = 200;
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
        return;
      }
      res.writeHead(404).end();
    } catch {
      status = 400;
      res.writeHead(400).end();
    } finally {
      requests.push({ path, status });
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

/** Debian's Chromium, headless, with nothing reaching out to the network. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--headless", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}
