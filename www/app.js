// The in-browser checker. Everything from a bundle (report, sources, reviews) reaches
// the page through textContent or createTextNode — never as HTML.
// The package's entry (pkg/index.js), not wasm-bindgen's module: a trap (memory running
// out) is a coded error there, and later calls work.
import init, { checkBundle, digestText, fromAnthropicMessage, reportJsonSchema, showInvisible } from "./pkg/index.js";
import { startWorker, wasmModule } from "./boot.js";
import { WORDS, pickLang } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// ---- start-up: nothing waits but for the module ------------------------------------

/** Resolves once this thread's instance of the module (compiled from the head, see
 * www/boot.js) is up: every check waits for it, and nothing else (the policy selector is
 * set up after, see callOptions). */
const ready = wasmModule.then((module) => init({ module_or_path: module }));

const STATES = ["supported", "pending_review", "insufficient", "disputed", "contradicted", "invalid"];

// ---- language -----------------------------------------------------------------------

/** The page's language ("en" or "zh"): the browser's, until the switch changes it. The
 * library is called with the same `lang`, so its messages and the artifact match. */
let lang = pickLang(navigator.language);
/** The page's words in that language (www/i18n.js). */
let W = WORDS[lang];

/** Creates an element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/** Report and source text as displayed: every character that would hide content
 * (bidirectional controls, zero-width and other format characters, fillers, stray
 * variation selectors) written as ⟦U+XXXX⟧, the artifact's own rule. */
const vis = (text) => showInvisible(String(text));

const normalize = (text) => text.replace(/\r\n?/g, "\n");

/** Where each line of `text` starts, in UTF-16 units (`at`) and in code points (`cp`), and
 * the text's length in code points: one pass, no array of characters. */
function lineIndex(text) {
  const at = [0];
  const cp = [0];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
    if (c === 10) {
      at.push(i + 1);
      cp.push(n);
    }
  }
  return { at, cp, length: n };
}

/** The 0-based line holding code point `point`. */
function lineAt(src, point) {
  let lo = 0;
  let hi = src.index.cp.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (src.index.cp[mid] <= point) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The 1-based line number of code point `point` (the repair hint's). */
const lineOf = (src, point) => lineAt(src, point) + 1;

/** The UTF-16 offset of code point `point`. */
function unitAt(src, point) {
  const line = lineAt(src, point);
  let i = src.index.at[line];
  for (let k = src.index.cp[line]; k < point && i < src.content.length; k++) i += src.content.codePointAt(i) > 0xffff ? 2 : 1;
  return i;
}

/** The text of code points [start, end). */
const slice = (src, start, end) => src.content.slice(unitAt(src, start), unitAt(src, Math.min(end, src.index.length)));

/** The page's own text as nodes: `x` becomes a code element, _x_ an em element. */
function rich(text) {
  return text.split(/(`[^`]+`|_[^_]+_)/).filter(Boolean).map((part) =>
    part.startsWith("`") ? el("code", { text: part.slice(1, -1) }) : part.startsWith("_") && part.endsWith("_") && part.length > 2 ? el("em", { text: part.slice(1, -1) }) : document.createTextNode(part));
}

/** Writes the page's own labels in the current language. */
function applyLang() {
  document.documentElement.lang = lang;
  document.title = W.title;
  $("lang").value = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.replaceChildren(...rich(W[node.dataset.t]));
  for (const option of $("policy").options) {
    option.textContent = option.value === "" ? W.policyLibraryDefault : option.value === defaultPolicy ? W.policyDefault(option.value) : option.value;
  }
}

// ---- policy -------------------------------------------------------------------------

/** The library's default policy: the preset whose JSON Schema equals the schema made with
 * no policy (the schema states the policy). null if it is neither preset; the selector then
 * offers "the library's default", which passes no policy. */
let defaultPolicy = null;
/** Whether the user changed the selector (before the module was ready too: that choice is kept). */
let policyChosen = false;

function setUpPolicy() {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const none = reportJsonSchema();
  defaultPolicy = ["reference", "documents"].find((p) => same(reportJsonSchema({ policy: p }), none)) ?? null;
  const select = $("policy");
  if (defaultPolicy === null) select.prepend(el("option", { value: "" }));
  if (!policyChosen) select.value = defaultPolicy ?? "";
  applyLang();
}

/** The options every library call that takes them gets: the policy the user chose (none
 * until then: the library's default, which the selector shows once set up) and the page's
 * language. */
function callOptions() {
  const policy = policyChosen ? $("policy").value : "";
  return policy ? { policy, lang } : { lang };
}

// ---- errors ------------------------------------------------------------------------

const RESULT_SECTIONS = ["overview", "claims", "sources", "artifact"];
/** How many violations the page lists; the rest are counted ("and N more"). */
const MAX_LISTED = 100;

/** Hides the previous result and forgets its artifact, before anything else is shown. */
function clearResult() {
  for (const id of RESULT_SECTIONS) $(id).hidden = true;
  current = null;
  delete document.body.dataset.shown;
}

function showErrors(summary, issues) {
  clearResult();
  const list = $("errors-list");
  list.replaceChildren();
  // Appended one by one (never spread into one call: a huge list overflows the stack).
  const listed = Math.min(issues.length, MAX_LISTED);
  for (let k = 0; k < listed; k++) {
    const i = issues[k] ?? {};
    const path = typeof i.path === "string" ? i.path : "";
    list.append(el("li", { "data-code": i.code }, el("code", { text: path === "" ? "/" : path }), ": ", String(i.message ?? ""), " ", el("span", { class: "help", text: `(${i.code})` })));
  }
  if (issues.length > listed) list.append(el("li", { class: "help", "data-role": "more", text: W.more(issues.length - listed) }));
  $("errors-summary").textContent = summary;
  $("errors").hidden = false;
}

function hideErrors() {
  $("errors").hidden = true;
}

// ---- the check ---------------------------------------------------------------------

/** The last input checked, to check again in another language. */
let last = null;

/** `origin` names the input: a file's name, or a key of the page's words (W.originPasted). */
async function check(text, origin) {
  last = { text, origin };
  const id = ++checks;
  // An error must never leave the previous verdict on screen.
  clearResult();
  hideErrors();
  $("loading").textContent = W.checking;
  const name = W[origin] ?? origin;
  await ready;
  if (id !== checks) return;
  // Here, the verdict is checked without the artifact, which is rendered after it is shown.
  const options = callOptions();
  const here = text.length <= HERE_MAX;
  const answer = here ? checkHere(text, { ...options, render: false }) : await checkOffThread(id, text, options);
  if (id !== checks) return; // a newer check was started meanwhile
  $("loading").textContent = W.ready;
  if (answer.error) {
    const e = answer.error;
    const issues = Array.isArray(e.issues) ? e.issues : [{ path: "", code: e.code ?? "error", message: e.message }];
    showErrors(`${name}: ${e.message}`, issues);
  } else await show(answer.bundle, answer.result, answer.digests, id, here ? () => checkBundle(text, options) : null);
}

// ---- the check: here, or off the page's thread ----------------------------------------

/** How many checks were started: only the latest one's answer is shown. */
let checks = 0;
/** The largest bundle text (UTF-16 units) checked on the page's thread, in a few
 * milliseconds; a larger one goes to the worker, so that the page never freezes. */
const HERE_MAX = 1 << 20;
/** The check's worker: started at the first large bundle, and again after one failed or
 * trapped; false where none can be made. */
let worker = null;
const waiting = new Map();

/** Takes `w` (www/check-worker.js, see www/boot.js) as the check's worker. A worker
 * whose call trapped answers, and is then replaced (the memory the trap took stays in use
 * in it): the checks it still had go to the new one. One that failed answers every check
 * it had with an error. */
function adopt(w) {
  worker = w ?? false;
  if (!w) return;
  const retire = () => {
    w.terminate();
    if (worker === w) worker = null;
  };
  w.onmessage = ({ data }) => {
    waiting.get(data.id)?.done(data);
    waiting.delete(data.id);
    if (!data.trapped) return;
    retire();
    const left = [...waiting];
    if (left.length && worker === null) adopt(startWorker());
    for (const [key, { done, text, options }] of left) {
      if (worker) worker.postMessage({ id: key, text, options });
      else {
        waiting.delete(key);
        done(checkHere(text, options));
      }
    }
  };
  w.onerror = (event) => {
    // The worker itself failed (not a check: those answer with their error).
    event.preventDefault();
    for (const [, { done }] of waiting) done({ error: { message: `${W.workerFailed}: ${event.message ?? ""}`, code: "worker_failed" } });
    waiting.clear();
    retire();
  };
}

/** Checks in the worker (started again if it failed); where there is none, here. */
function checkOffThread(id, text, options) {
  if (worker === null) adopt(startWorker());
  if (!worker) return Promise.resolve(checkHere(text, options));
  return new Promise((done) => {
    waiting.set(id, { done, text, options });
    worker.postMessage({ id, text, options });
  });
}

function checkHere(text, options) {
  try {
    const result = checkBundle(text, options);
    const bundle = JSON.parse(text);
    return { result, bundle };
  } catch (e) {
    return { error: { message: String(e?.message ?? e), code: e?.code, issues: Array.isArray(e?.issues) ? e.issues : undefined } };
  }
}

/** Resolves after the next frame is painted (at once in a hidden tab, which paints none)
 * and after the tasks queued as it was made (input, timers): what was just shown is on
 * screen, and answers them, before the page makes anything else. */
const painted = () => new Promise((done) => {
  const later = () => setTimeout(() => setTimeout(done));
  if (document.hidden) later();
  else requestAnimationFrame(later);
});

/**
 * Shows a result: the verdict first (the overview, painted before anything else is made),
 * then the claims, the sources and the artifact (`rendered()`'s when the result was checked
 * without one), then its preview; `body[data-shown]` once all of it is there. Stops when a
 * newer check started meanwhile.
 */
async function show(bundle, result, digests, id, rendered) {
  const { assessment } = result;
  const badge = $("badge");
  badge.className = `badge s-${assessment.status}`;
  badge.textContent = W.status[assessment.status] ?? assessment.status;
  $("meaning").textContent = W.meaning[assessment.status] ?? "";
  $("report-title").textContent = vis(bundle.report.title);
  $("report-digest").textContent = assessment.report_digest;
  const counts = {};
  for (const s of Object.values(assessment.claims)) counts[s] = (counts[s] ?? 0) + 1;
  $("counts").replaceChildren(
    ...STATES.filter((s) => counts[s]).map((s) => el("li", {}, el("span", { class: `badge s-${s}`, text: W.state[s] }), ` ${counts[s]}`)),
  );

  // The reviews the checker refused (part of the overview), and those it counted (see countedReviews).
  const { counted: reviews, refused } = countedReviews(bundle.reviews ?? [], assessment.issues);
  showRefused(refused);
  $("overview").hidden = false;
  $("overview").scrollIntoView({ block: "start" });
  await painted();
  if (id !== checks) return;
  let later = result;
  try {
    if (rendered) later = rendered();
  } catch (e) {
    later = { render_error: { message: String(e?.message ?? e), code: e?.code } };
  }
  const { artifact, render_error: renderError } = later;

  const sources = new Map(bundle.sources.map((s, k) => {
    const content = normalize(s.content);
    return [s.spec.source_id, { ...s, revision: s.revision ?? 1, content, index: lineIndex(content), digest: digests?.[k] ?? digestText(s.content), marks: [] }];
  }));
  passages.clear();
  const issuesByCitation = new Map();
  for (const i of assessment.issues) if (!issuesByCitation.has(i.citation_id)) issuesByCitation.set(i.citation_id, i);

  // Citations numbered by first appearance (for a valid report, the artifact's numbers).
  const citations = new Map();
  for (const claim of bundle.report.claims) {
    for (const c of claim.citations ?? []) {
      if (!citations.has(c.citation_id)) citations.set(c.citation_id, { n: citations.size + 1, citation: c, issue: issuesByCitation.get(c.citation_id) });
    }
  }
  for (const info of citations.values()) {
    const src = sources.get(info.citation.ref.source_id);
    if (!info.issue && src) {
      src.marks.push(info);
      passages.set(String(info.n), { src, start: info.citation.start });
    }
  }

  // Claims, each with the reviews the checker counted.
  $("claim-list").replaceChildren(
    ...bundle.report.claims.map((claim) => {
      const state = assessment.claims[claim.claim_id];
      const counted = reviews.get(claim.claim_id) ?? [];
      const cites = (claim.citations ?? []).map((c) => {
        const info = citations.get(c.citation_id);
        return el("button", {
          type: "button",
          class: `cite${info.issue ? " invalid" : ""}`,
          "data-citation": c.citation_id,
          "aria-label": info.issue ? W.citationInvalid(info.n, c.citation_id) : W.showPassage(info.n, c.citation_id),
          onclick: () => (info.issue ? explainFocus(c.citation_id) : flash(info.n)),
        }, info.issue ? `✖ ${info.n}` : `[${info.n}]`);
      });
      const why = (claim.citations ?? [])
        .map((c) => citations.get(c.citation_id))
        .filter((info) => info.issue)
        .map((info) => el("p", { class: "why", id: `why-${info.citation.citation_id}`, tabindex: "-1" }, explain(info, sources)));
      return el(
        "li",
        { "data-claim": claim.claim_id, "data-state": state },
        el("div", { class: "claim-head" },
          el("span", { class: "claim-id", text: vis(claim.claim_id) }),
          el("span", { class: "kind", text: claim.kind === "fact" ? W.fact : W.inference }),
          el("span", { class: `badge s-${state}`, "data-role": "state", text: W.state[state] ?? state }),
        ),
        el("p", { class: "claim-text", text: vis(claim.text) }),
        claim.rationale ? el("p", { class: "help" }, W.rationale, vis(claim.rationale)) : null,
        ...counted.map((review) => el("p", { class: "help", "data-role": "review" }, W.review, el("strong", { text: W.verdict[review.verdict] ?? review.verdict }), ` — ${vis(review.note)} (${vis(review.reviewed_at)})`)),
        cites.length ? el("p", {}, W.citations, ...cites.flatMap((b, i) => (i ? [" ", b] : [b]))) : el("p", { class: "help", text: W.noCitations }),
        ...why,
      );
    }),
  );
  const cg = [
    ...(bundle.report.conflicts ?? []).map((c) => el("li", {}, el("strong", { text: W.conflict }), vis(c.claim_ids.join(", ")), ": ", vis(c.reason))),
    ...(bundle.report.gaps ?? []).map((g) => el("li", {}, el("strong", { text: W.gap }), vis(g))),
  ];
  $("conflicts-gaps").replaceChildren(...(cg.length ? cg : [el("li", { class: "help", text: W.noConflictsGaps })]));

  // Sources.
  $("source-list").replaceChildren(...[...sources.values()].map(renderSource));

  // Artifact.
  $("artifact-none").hidden = Boolean(artifact);
  $("artifact-body").hidden = !artifact;
  if (artifact) {
    $("artifact-text").textContent = artifact.content;
    $("artifact-digest").textContent = artifact.content_digest;
  } else {
    $("artifact-none").textContent = renderError ? W.notRenderedBecause(renderError.message, renderError.code) : W.notRendered;
    $("artifact-text").textContent = "";
  }
  $("preview").replaceChildren();
  current = artifact;
  for (const section of ["claims", "sources", "artifact"]) $(section).hidden = false;
  if (artifact) {
    const markdownit = await loadMarkdownIt().catch(() => null);
    if (id !== checks) return;
    if (markdownit) renderPreview(markdownit, artifact.content, $("preview"));
  }
  document.body.dataset.shown = "true";
}

/** The reviews the checker counted, by claim, and the issues of those it refused. The
 * page applies no rule of its own: the assessment names every review it left out by its
 * `review_index` (an issue with no citation: a duplicate, another scope's, one bound to
 * another report digest, a bad signature). A refused review whose issue gives no index
 * (no such result is known today) leaves its claim with no review shown, since the
 * result does not say which of the claim's reviews was counted. */
function countedReviews(reviews, issues) {
  const refusedIndex = new Set();
  const unknownClaims = new Set();
  const refused = [];
  for (const i of issues) {
    if (i.citation_id !== null && i.citation_id !== undefined) continue;
    refused.push(i);
    if (Number.isInteger(i.review_index)) refusedIndex.add(i.review_index);
    else unknownClaims.add(i.claim_id);
  }
  const counted = new Map();
  reviews.forEach((r, index) => {
    if (refusedIndex.has(index) || unknownClaims.has(r?.claim_id)) return;
    if (!counted.has(r.claim_id)) counted.set(r.claim_id, []);
    counted.get(r.claim_id).push(r);
  });
  return { counted, refused };
}

/** The refused reviews: code, index in the bundle's reviews, claim, and the checker's reason. */
function showRefused(refused) {
  const list = $("review-issues");
  list.replaceChildren();
  const listed = Math.min(refused.length, MAX_LISTED);
  for (let k = 0; k < listed; k++) {
    const i = refused[k];
    const index = Number.isInteger(i.review_index) ? i.review_index : null;
    list.append(el("li", { "data-code": i.code, "data-index": index ?? undefined },
      el("code", { text: i.code }), " ",
      W.refusedItem(index), W.of, el("code", { text: vis(i.claim_id) }), ": ", vis(String(i.message ?? ""))));
  }
  if (refused.length > listed) list.append(el("li", { class: "help", "data-role": "more", text: W.more(refused.length - listed) }));
  $("review-issues-box").hidden = refused.length === 0;
}

/** Where each valid citation's passage is (by its number as text): its source and start. */
const passages = new Map();

/** Why a citation failed, and where its quote does occur in the current text. */
function explain(info, sources) {
  const { citation: c, issue, n } = info;
  const src = sources.get(c.ref.source_id);
  const parts = [W.whyHead(n, c.citation_id, issue.message, issue.code)];
  if (!src) {
    parts.push(W.noSource(c.ref.source_id));
    return parts.join("");
  }
  if (["ref_unavailable", "revision_stale", "digest_mismatch"].includes(issue.code)) {
    if (c.ref.revision !== src.revision) parts.push(W.staleRevision(c.ref.revision, src.revision));
    else parts.push(W.wrongDigest);
  } else if (issue.code === "quote_mismatch") {
    parts.push(W.readsAt(c.start, c.end, vis(slice(src, c.start, c.end))));
  } else if (issue.code === "range_out_of_bounds") {
    parts.push(W.onlyCodePoints(src.index.length));
  }
  // The checker's repair hint: where the exact quote occurs in the current revision.
  const hint = issue.hint;
  if (hint?.occurrences === 1) parts.push(W.occursOnce(hint.start, hint.end, lineOf(src, hint.start)));
  else if (hint) parts.push(W.occursTimes(hint.occurrences));
  else parts.push(W.occursNot);
  return parts.join("");
}

/** How many lines a source shows at first, and how many more each "show more" adds: the
 * lines outside the window are never made into DOM nodes (a source may have millions). */
const WINDOW = 400;

/** The source's lines [from, to), made now. */
function renderLines(src, from, to) {
  const items = [];
  for (let k = from; k < to; k++) items.push(renderLine(src, k));
  return items;
}

/** One line: its text, each run covered by the same citations a <mark>. The first run of a
 * citation (the one holding its start) gets the id passage-N. */
function renderLine(src, k) {
  const { at, cp } = src.index;
  const text = src.content.slice(at[k], k + 1 < at.length ? at[k + 1] - 1 : src.content.length);
  const first = cp[k];
  const chars = Array.from(text);
  const last = first + chars.length;
  const marks = src.marks.filter((m) => m.citation.start < last && m.citation.end > first);
  const li = el("li");
  if (!marks.length) {
    if (text) li.append(document.createTextNode(vis(text)));
    return li;
  }
  const cover = chars.map((_, i) => marks.filter((m) => m.citation.start <= first + i && first + i < m.citation.end).map((m) => m.n).join(" "));
  let i = 0;
  while (i < chars.length) {
    let j = i;
    let run = "";
    while (j < chars.length && cover[j] === cover[i]) run += chars[j++];
    if (cover[i]) {
      const ns = cover[i].split(" ");
      const mark = el("mark", { "data-cites": cover[i], title: W.citationTitle(ns.join(", ")), tabindex: "-1" }, vis(run));
      for (const m of marks) {
        if (m.citation.start < first + i || m.citation.start >= first + j) continue;
        if (!mark.id) mark.id = `passage-${m.n}`;
        else mark.setAttribute("data-also", `passage-${m.n}`);
      }
      li.append(mark);
    } else li.append(document.createTextNode(vis(run)));
    i = j;
  }
  return li;
}

/** Shows lines [from, to) of a rendered source (clamped), replacing the window shown. */
function showWindow(src, from, to) {
  src.from = Math.max(0, from);
  src.to = Math.min(src.lineCount, Math.max(to, src.from));
  const ol = src.ol;
  ol.start = src.from + 1;
  ol.replaceChildren(...renderLines(src, src.from, src.to));
  src.earlier.hidden = src.from === 0;
  src.later.hidden = src.to >= src.lineCount;
  src.later.textContent = W.moreLines(Math.min(WINDOW, src.lineCount - src.to));
  src.earlier.textContent = W.earlierLines(Math.min(WINDOW, src.from));
  src.status.textContent = src.lineCount > WINDOW ? W.linesShown(src.from + 1, src.to, src.lineCount) : "";
}

/** Brings code point `point` of a source into its window. */
function reveal(src, point) {
  const line = lineAt(src, point);
  if (line >= src.from && line < src.to) return;
  showWindow(src, line - WINDOW / 4, line + (3 * WINDOW) / 4);
}

function renderSource(src) {
  // A text that ends with a line feed has no line after it.
  src.lineCount = src.index.at.length - (src.content.endsWith("\n") ? 1 : 0);
  src.ol = el("ol", { class: "lines" });
  src.earlier = el("button", { type: "button", class: "more-lines", "data-role": "earlier", onclick: () => showWindow(src, src.from - WINDOW, src.to) });
  src.later = el("button", { type: "button", class: "more-lines", "data-role": "later", onclick: () => showWindow(src, src.from, src.to + WINDOW) });
  src.status = el("p", { class: "help lines-status", role: "status" });
  showWindow(src, 0, WINDOW);
  return el(
    "article",
    { class: "source", "data-source": src.spec.source_id },
    el("h3", { text: vis(src.spec.title) }),
    el("dl", {},
      el("dt", { text: W.sourceId }), el("dd", {}, el("code", { text: src.spec.source_id })),
      el("dt", { text: W.locator }), el("dd", { text: vis(src.spec.locator) }),
      el("dt", { text: W.kind }), el("dd", { text: src.spec.kind }),
      el("dt", { text: W.revision }), el("dd", { text: String(src.revision) }),
      el("dt", { text: "SHA-256" }), el("dd", {}, el("code", { text: src.digest })),
    ),
    src.status,
    src.earlier,
    src.ol,
    src.later,
  );
}

function flash(n) {
  const passage = passages.get(String(n));
  if (passage) reveal(passage.src, passage.start);
  const mark = document.getElementById(`passage-${n}`) ?? document.querySelector(`mark[data-also="passage-${n}"]`);
  if (!mark) return;
  mark.scrollIntoView({ block: "center", behavior: "smooth" });
  mark.focus({ preventScroll: true });
  mark.classList.remove("flash");
  void mark.offsetWidth;
  mark.classList.add("flash");
}

function explainFocus(citationId) {
  const p = document.getElementById(`why-${citationId}`);
  if (p) p.focus();
}

// ---- the Markdown preview: markdown-it tokens to DOM, text only ---------------------

const BLOCK_TAGS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tr", "th", "td"]);
const INLINE_TAGS = new Set(["strong", "em", "s"]);

/** The Markdown library (vendor/markdown-it.min.js), fetched and run when the preview first
 * needs it or the page is idle, never before a verdict: resolves to it. */
let markdownIt = null;
function loadMarkdownIt() {
  markdownIt ??= new Promise((done, fail) => {
    const script = el("script", { src: "vendor/markdown-it.min.js" });
    script.addEventListener("load", () => (window.markdownit ? done(window.markdownit) : fail(new Error("markdown-it did not load"))));
    script.addEventListener("error", () => fail(new Error("markdown-it did not load")));
    document.head.append(script);
  });
  return markdownIt;
}

function renderPreview(markdownit, markdown, container) {
  const md = markdownit({ html: false, linkify: false, typographer: false });
  const tokens = md.parse(markdown, {});
  const stack = [container];
  container.replaceChildren();
  for (const t of tokens) {
    const top = stack[stack.length - 1];
    if (t.nesting === 1) {
      const node = document.createElement(BLOCK_TAGS.has(t.tag) ? t.tag : "div");
      top.append(node);
      stack.push(node);
    } else if (t.nesting === -1) {
      stack.pop();
    } else if (t.type === "inline") {
      renderInline(t.children ?? [], top);
    } else if (t.type === "fence" || t.type === "code_block") {
      top.append(el("pre", {}, el("code", { text: t.content })));
    } else if (t.type === "hr") {
      top.append(el("hr"));
    } else if (t.content) {
      top.append(document.createTextNode(t.content));
    }
  }
}

function renderInline(tokens, parent) {
  const stack = [parent];
  for (const t of tokens) {
    const top = stack[stack.length - 1];
    if (t.type === "link_open") {
      const href = t.attrGet("href") ?? "";
      // Only in-document anchors become links; anything else stays text.
      const node = /^#[A-Za-z0-9_-]+$/.test(href) ? el("a", { href }) : el("span", { class: "link" });
      top.append(node);
      stack.push(node);
    } else if (t.nesting === 1) {
      const node = document.createElement(INLINE_TAGS.has(t.tag) ? t.tag : "span");
      top.append(node);
      stack.push(node);
    } else if (t.nesting === -1) {
      stack.pop();
    } else if (t.type === "code_inline") {
      top.append(el("code", { text: t.content }));
    } else if (t.type === "softbreak") {
      top.append(document.createTextNode("\n"));
    } else if (t.type === "hardbreak") {
      top.append(el("br"));
    } else if (t.type === "image") {
      top.append(document.createTextNode(t.content));
    } else {
      top.append(document.createTextNode(t.content));
    }
  }
}

// ---- input ---------------------------------------------------------------------------

let current = null;

async function readFile(file) {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    showErrors(W.notUtf8(file.name), [{ path: "", code: "invalid_utf8", message: W.notUtf8Message }]);
    return null;
  }
}

/** Settles once every input given so far (a file being read, its check) is done: the
 * policy selector's set-up waits for it, so that it never delays a first verdict. */
let busy = Promise.resolve();
/** `listener`, its work counted in `busy`. */
const tracked = (listener) => (event) => {
  const work = listener(event);
  busy = Promise.allSettled([busy, work]);
  return work;
};

function wire() {
  $("load-example").addEventListener("click", tracked(async () => {
    const text = await (await fetch("examples/demo.bundle.json")).text();
    $("paste").value = text;
    await check(text, "originExample");
  }));
  $("file").addEventListener("change", tracked(async (e) => {
    const file = e.target.files?.[0];
    if (!file) return;
    const text = await readFile(file);
    e.target.value = "";
    if (text !== null) await check(text, file.name);
  }));
  $("check").addEventListener("click", tracked(() => check($("paste").value, "originPasted")));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", tracked(async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const file = e.dataTransfer?.files?.[0];
    if (file) {
      const text = await readFile(file);
      if (text !== null) await check(text, file.name);
    }
  }));
  $("copy").addEventListener("click", async () => {
    if (!current) return;
    try {
      await navigator.clipboard.writeText(current.content);
      $("copy-status").textContent = W.copied;
    } catch {
      $("copy-status").textContent = W.clipboardRefused;
    }
  });
  $("download").addEventListener("click", () => {
    if (!current) return;
    const url = URL.createObjectURL(new Blob([current.content], { type: "text/markdown;charset=utf-8" }));
    const a = el("a", { href: url, download: "artifact.md" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}

// ---- importers: an Anthropic request/response pair ---------------------------------

/** Tells the request (it has `messages`) from the response (it has `content`). */
function requestAndResponse(texts) {
  const parsed = texts.map(({ name, text }) => {
    try {
      return { name, text, value: JSON.parse(text) };
    } catch (e) {
      throw Object.assign(new Error(W.notJson(name, e.message)), { code: "invalid_json" });
    }
  });
  const request = parsed.find((p) => Array.isArray(p.value?.messages));
  const response = parsed.find((p) => p !== request && Array.isArray(p.value?.content));
  if (parsed.length !== 2 || !request || !response) {
    throw Object.assign(new Error(W.pickTwo), { code: "invalid_argument" });
  }
  return { request, response };
}


async function importAnthropic(files) {
  await ready;
  const texts = [];
  for (const file of files) {
    const text = await readFile(file);
    if (text === null) return;
    texts.push({ name: file.name, text });
  }
  let bundle;
  try {
    const { request, response } = requestAndResponse(texts);
    bundle = fromAnthropicMessage(request.text, response.text, { ...callOptions(), scope: { tenant_id: "local", user_id: "local" } });
  } catch (e) {
    $("import-status").textContent = "";
    const issues = Array.isArray(e?.issues) ? e.issues : [{ path: "", code: e?.code ?? "error", message: String(e?.message ?? e) }];
    showErrors(`${W.anthropicImport}: ${e?.message ?? e}`, issues);
    return;
  }
  const units = (bundle.import_notes ?? []).filter((n) => n.unit).map((n) => `${n.citation_id}: ${n.unit}`);
  $("import-status").textContent = W.imported(bundle.sources.length, bundle.report.claims.length, units.join(", "));
  const text = JSON.stringify(bundle, null, 2);
  $("paste").value = text;
  check(text, "originAnthropic");
}

function wireImporters() {
  $("anthropic-files").addEventListener("change", async (e) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = "";
    if (files.length) await importAnthropic(files);
  });
}

function wireLang() {
  $("lang").addEventListener("change", () => {
    lang = $("lang").value === "zh" ? "zh" : "en";
    W = WORDS[lang];
    applyLang();
    $("loading").textContent = W.ready;
    $("import-status").textContent = "";
    // What is shown (a result or its errors) is shown again in the new language.
    if (last) check(last.text, last.origin);
  });
}

// Everything is wired at once: a bundle given before the module is ready is checked as soon
// as it is (a file chosen before this script ran too). index.html is written in English, in
// the page's words: only another language rewrites them now.
if (lang !== document.documentElement.lang) applyLang();
$("loading").textContent = W.loading;
wire();
wireImporters();
wireLang();
policyChosen = [...$("policy").options].some((o) => o.selected !== o.defaultSelected);
$("policy").addEventListener("change", () => (policyChosen = true));
if ($("file").files?.[0]) $("file").dispatchEvent(new Event("change"));
await ready;
// The selector is set up once the page is idle with nothing given to it pending (a file
// being read, its check): it never delays a verdict, one given before the module was
// ready included.
for (let seen; seen !== busy; ) {
  await (seen = busy);
  await new Promise((done) => (window.requestIdleCallback ?? setTimeout)(() => done()));
}
setUpPolicy();
if ($("loading").textContent === W.loading) $("loading").textContent = W.ready;
document.body.dataset.ready = "true";
(window.requestIdleCallback ?? setTimeout)(() => loadMarkdownIt().catch(() => {}));
