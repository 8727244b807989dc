// How the binding reads an options object (js-api/src/args.rs `options_arg`): `now` is
// looked at first (one too long to be a date-time is refused uncopied), then the object
// is read once by `JSON.stringify` (its `toJSON`, then each own key once) and the text by
// serde's derive; a lone surrogate anywhere in it, a key too, is `invalid_unicode`.
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

test("options: `now`, then the object as JSON.stringify reads it (each own key once)", () => {
  const { proxy, asked } = recording({ now: NOW, render: false });
  const result = ec.checkBundle(bundle, proxy);
  assert.ok(!("artifact" in result) || result.artifact == null);
  assert.deepEqual(asked, ["now", "toJSON", "now", "render"]);
});

test("options: a key with a lone surrogate is invalid_unicode, as a string value with one is", () => {
  const lone = "\ud800";
  assert.throws(() => ec.checkBundle(bundle, { [lone]: 1, now: NOW }), (e) => e.code === "invalid_unicode" && e.message.startsWith("options contains a string with an unpaired surrogate"));
  assert.throws(() => ec.checkBundle(bundle, { now: NOW, lang: lone }), (e) => e.code === "invalid_unicode");
  // A key that is not ASCII but valid is read as itself, and refused as unknown by name.
  assert.throws(() => ec.checkBundle(bundle, { nöw: NOW }), (e) => e.code === "invalid_argument" && e.message.startsWith("options.nöw: unknown field `nöw`"));
});

test("options: a string value is read whole; a `now` too long to be a date-time is refused without being read", () => {
  assert.throws(() => ec.checkBundle(bundle, { now: "x".repeat(300) }), (e) => e.code !== undefined && !e.message.includes("xxxx"));
  assert.throws(() => ec.checkBundle(bundle, { lang: "e".repeat(300) }), (e) => e.code === "invalid_argument" && e.message.includes("e".repeat(300)));
});
