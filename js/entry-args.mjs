// Arguments the glue passes as text (internal; js/entry-hook.mjs patches the wasm-bindgen
// glue to call these, see the "r10-args" section of src/wasm.rs).

// Stand-ins for a review whose serialisation throws or gives nothing: `add` serialising
// them does the same, so it throws the error it threw before (a stand-in throws the very
// value the review's serialisation threw: out of stack, a review nested too deep, is then
// refused as too deep, as when the module serialises it).
const throws = (thrown) => ({
  toJSON() {
    throw thrown;
  },
});
const NOTHING = { toJSON() {} };

/**
 * What `Reviews.add` on `list` passes for `review`: its JSON text (a string) as the module
 * would serialise it; `null` to pass the review as before, when the module would not
 * serialise it (`undefined`, a function, a symbol) or the call is not on a list; or a
 * stand-in to pass instead, when serialising it threw or gave nothing.
 */
export function reviewText(list, review) {
  if (review === undefined || typeof review === "function" || typeof review === "symbol" || typeof list?.__wbg_ptr !== "number" || list.__wbg_ptr === 0) return null;
  let text;
  try {
    text = JSON.stringify(review);
  } catch (thrown) {
    return throws(thrown);
  }
  return typeof text === "string" ? text : NOTHING;
}

/** The most UTF-16 units of JSON text the module reads as a review (its 16 MiB input limit). */
const MAX_TEXT_UNITS = 16 * 1024 * 1024;

/**
 * The text the glue copies into the module for a review's JSON text `text`: "" when it is
 * longer than the module reads (the module refuses it by its length alone, passed beside
 * it, as it refused the review it serialised: never copied).
 */
export function copiedText(text) {
  return text.length > MAX_TEXT_UNITS ? "" : text;
}
