"""Every injection payload in every text field, in both languages, rendered by cmark-gfm
(GitHub's renderer, through the cmarkgfm package) with GitHub's extensions (autolink,
table, strikethrough, tagfilter, tasklist) and footnotes:

- the HTML has exactly the elements of the same artifact made from harmless text, apart
  from the escaping's code spans, and no link but the artifact's own `#source-N` anchors;
- copy-back: the text of the HTML is the baseline's, with the payload's text where the
  baseline has its word (whitespace collapsed, invisible characters as ⟦U+XXXX⟧) and
  only the digests and numbers that follow from the payload otherwise changed;
- GitHub's documented autolink and reference rules (URLs, www., e-mail addresses,
  @mentions, #123, GH-123, owner/repo#123, commit SHAs, and so the closing keywords)
  match nothing in the rendered text outside code elements, each text node on its own
  as GitHub's filters see it.

Run with the project's venv after `make build`: .venv/bin/python tests/gfm/test_gfm.py
(`make test-gfm`). The artifacts come from the built package (tests/gfm/artifacts.mjs).
"""
import collections
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTENSIONS = ["autolink", "table", "strikethrough", "tagfilter", "tasklist"]
# Unsafe: raw HTML is kept as HTML, so any that got through would count as an element.
OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)\b")
HREF = re.compile(r"href=\"([^\"]*)\"")
SENTINEL = "Zqxjv"
# GitHub's documented autolinks and references, as found in rendered text (docs: "Autolinked
# references and URLs"; mentions; cmark-gfm's autolink extension), each wider than GitHub's
# own rule. A closing keyword acts only on a reference, so these cover "Closes #1" too.
RULES = {
    "url": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://"),
    "www": re.compile(r"(?i)www\."),
    "e-mail, mention or user@sha": re.compile(r"@[A-Za-z0-9]"),
    "#123 or owner/repo#123": re.compile(r"#[0-9]"),
    "GH-123": re.compile(r"(?i)gh-[0-9]"),
    "commit SHA": re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{7,40}(?![0-9A-Za-z])"),
}
BLOCKS = {"p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "tr", "td", "th", "hr", "div", "section"}


def render(markdown):
    return cmarkgfm.markdown_to_html_with_extensions(markdown, options=OPTIONS, extensions=EXTENSIONS)


def tags(html):
    """Elements by name; code elements left out (the escaping's code spans)."""
    return collections.Counter(m.lower() for m in TAG.findall(html) if m.lower() != "code")


class Text(HTMLParser):
    """The text of each block, and the text nodes outside code elements."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.blocks, self.plain, self._block, self._code = [], [], [], 0
        self.feed(html)
        self.close()
        self._flush()

    def _flush(self):
        text = " ".join("".join(self._block).split())
        if text:
            self.blocks.append(text)
        self._block = []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS:
            self._flush()
        self._code += tag == "code"

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self._flush()
        self._code -= tag == "code"

    def handle_data(self, data):
        self._block.append(data)
        if not self._code:
            self.plain.append(data)


MASK = [(re.compile(r"[0-9a-f]{64}"), "<sha256>"), (re.compile(r"[0-9]+"), "<n>")]


def masked(text):
    for pattern, repl in MASK:
        text = pattern.sub(repl, text)
    return text


def copy_back(baseline, got, expected):
    """Why the blocks of `got` are not those of `baseline` with the payload's text in
    place of SENTINEL (None when they are)."""
    if len(baseline) != len(got):
        return f"{len(got)} blocks, not {len(baseline)}"
    for b, g in zip(baseline, got):
        if SENTINEL in b:
            want = " ".join(b.replace(SENTINEL, expected).split())
            if g != want:
                return f"text {g!r}, not {want!r}"
        elif g != b and masked(g) != masked(b):
            return f"block {g!r}, not {b!r}"
    return None


def references(plain):
    """Each rule's matches in the text nodes outside code elements."""
    return [f"{name} {m.group(0)!r} in {node!r}" for node in plain for name, rule in RULES.items() for m in rule.finditer(node)]


def check(items):
    """(passed, refused, failures) over the artifacts."""
    passed, refused, failures = 0, 0, []
    baselines = {}
    for a in items:
        key = (a["lang"], a["field"])
        if key not in baselines:
            html = render(a["baseline"])
            text = Text(html)
            assert any(SENTINEL in b for b in text.blocks), (key, text.blocks)
            assert not references(text.plain), (key, references(text.plain))
            baselines[key] = (tags(html), text.blocks)
        if "artifact" not in a:
            refused += 1
            continue
        html = render(a["artifact"])
        got = tags(html)
        text = Text(html)
        bad = [h for h in HREF.findall(html) if not re.fullmatch(r"#source-\d+", h)]
        bad += references(text.plain)
        why = copy_back(baselines[key][1], text.blocks, a["expected"])
        if why:
            bad.append(f"copy-back: {why}")
        if got != baselines[key][0] or bad:
            failures.append(f"{a['lang']} / {a['field']}: {json.dumps(a['payload'])} -> {dict(got - baselines[key][0])} {bad}")
        else:
            passed += 1
    return passed, refused, failures


def self_test():
    """The checks can fail: on text that GitHub links, and on the escaping this replaced."""
    assert "mailto:" in render("see security\\@evil\\.example"), "cmark-gfm links an escaped e-mail address"
    assert "mailto:" not in render("see `security@evil.example`")
    for text, rule in [("Closes \\#123", "#123"), ("GH\\-1", "GH-123"), ("a5c3785", "commit SHA"), ("x \\@y", "e-mail"), ("http\\:\\/\\/e\\.x", "url"), ("www\\.e\\.x", "www")]:
        found = references(Text(render(text)).plain)
        assert any(rule in f for f in found), (text, found)
        assert not references(Text(render(f"`{text}`")).plain), text
    # The old escaping: `@` as a marker passes the rules but not copy-back.
    html = render("# Report ⟦U+0040⟧x")
    assert copy_back(["Report " + SENTINEL], Text(html).blocks, "@x") is not None
    assert copy_back(["Report " + SENTINEL], Text(render("# Report `@x`")).blocks, "@x") is None


def main():
    self_test()
    out = subprocess.run(["node", os.path.join(ROOT, "tests", "gfm", "artifacts.mjs")], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    items = [json.loads(line) for line in out.split("\n") if line]
    passed, refused, failures = check(items)
    for f in failures[:50]:
        print("FAIL", f)
    print(f"cmark-gfm ({', '.join(EXTENSIONS)}, footnotes): {len(items)} artifacts, {refused} refused by the contract")
    print(f"{passed} passed (elements, links, copy-back, {len(RULES)} GitHub reference rules), {len(failures)} failed")
    if failures or passed < 0.9 * len(items):
        sys.exit(1)


if __name__ == "__main__":
    main()
