#!/usr/bin/env node
// Serves the in-browser checker on localhost as the build assembles it (pkg/www: www/ with
// its scripts bundled, and the Markdown library for the preview), with the web build of
// the package (pkg/web) and the bundled example. Nothing else is served and nothing leaves
// the machine: the page does all its work in the browser.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");
// In the npm package this file is bin/serve.mjs (`evidence-check serve`): the web build is
// web/, and the page www/ (js/assemble.mjs). In the repository, both are in pkg/ once built.
const PACKAGED = basename(HERE) === "bin";
const BUILT = PACKAGED ? ROOT : join(ROOT, "pkg");
const ROUTES = [
  ["/pkg/", join(BUILT, "web")],
  ["/examples/", join(ROOT, "examples")],
  ["/", join(BUILT, "www")],
];
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".md": "text/markdown; charset=utf-8",
  ".png": "image/png",
  ".ts": "text/plain; charset=utf-8",
};

/** A request path that cannot be decoded (`%E0%A4%A`): answered 400. */
const MALFORMED = Symbol("malformed");

function locate(urlPath) {
  for (const [prefix, target] of ROUTES) {
    if (urlPath === prefix && !prefix.endsWith("/")) return target;
    if (prefix.endsWith("/") && urlPath.startsWith(prefix)) {
      let rest;
      try {
        rest = decodeURIComponent(urlPath.slice(prefix.length)) || "index.html";
      } catch {
        return MALFORMED;
      }
      const file = resolve(target, rest);
      return file === target || file.startsWith(target + sep) ? file : null;
    }
  }
  return null;
}

/** Starts the server; resolves to {url, close}. Port 0 picks a free port. */
export function startServer({ port = 8080, host = "127.0.0.1" } = {}) {
  const server = createServer(async (req, res) => {
    let file;
    try {
      file = locate(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      file = MALFORMED;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    if (file === MALFORMED) {
      res.writeHead(400, { "content-type": "text/plain" }).end("bad request: the path is not a valid percent-encoded URL\n");
      return;
    }
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
        // The page needs nothing from elsewhere; say so to the browser too. www/index.html
        // carries the same policy in a <meta> for static hosts; frame-ancestors (no site may
        // frame the page) only works here, in the header.
        "content-security-policy":
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      // close() also ends idle keep-alive connections, which would hold it open for seconds.
      ok({ url: `http://${host}:${actual}/`, close: () => new Promise((done) => (server.close(done), server.closeIdleConnections())) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? process.argv[2] ?? 8080);
  const { url } = await startServer({ port });
  console.log(`evidence-check page: ${url}  (Ctrl-C to stop)`);
}
