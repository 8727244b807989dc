// How the binding reads an options object (src/wasm.rs `options_arg`): its own keys, each
// read once through the key as listed; a key that is not ASCII read back from its text,
// as it always was (a lone surrogate in it comes out as U+FFFD, which names another
// property); every value as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const bundle = readJson("examples", "demo.bundle.json");

/** An options object that records the property keys its `get` trap is asked for. */
function recording(target) {
  const asked = [];
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      asked.push(key);
      return Reflect.get(t, key, receiver);
    },
  });
  return { proxy, asked };
}

test("options: each own key is read once, by the key as listed", () => {
  const { proxy, asked } = recording({ now: NOW, render: false });
  const result = ec.checkBundle(bundle, proxy);
  assert.ok(!("artifact" in result) || result.artifact == null);
  assert.deepEqual(asked, ["now", "render"]);
});

test("options: a key with a lone surrogate reads as its U+FFFD form, as before (here: absent, so ignored)", () => {
  const lone = "\ud800";
  const { proxy, asked } = recording({ [lone]: 1, now: NOW });
  assert.doesNotThrow(() => ec.checkBundle(bundle, proxy));
  assert.deepEqual(asked, ["\ufffd", "now"]);
  // A key that is not ASCII but valid is read as itself, and refused as unknown by name.
  assert.throws(() => ec.checkBundle(bundle, { nöw: NOW }), (e) => e.code === "invalid_argument" && e.message.startsWith("options.nöw: unknown field `nöw`"));
});

test("options: a string value is read whole; a `now` too long to be a date-time is refused without being read", () => {
  assert.throws(() => ec.checkBundle(bundle, { now: "x".repeat(300) }), (e) => e.code !== undefined && !e.message.includes("xxxx"));
  assert.throws(() => ec.checkBundle(bundle, { lang: "e".repeat(300) }), (e) => e.code === "invalid_argument" && e.message.includes("e".repeat(300)));
});
