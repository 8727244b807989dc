"""Every injection payload in every text field, in both languages, rendered by cmark-gfm
(GitHub's renderer, through the cmarkgfm package) with GitHub's extensions (autolink,
table, strikethrough, tagfilter, tasklist) and footnotes: the HTML has exactly the
elements of the same artifact made from harmless text, and no link but the artifact's
own `#source-N` anchors.

Run with the project's venv after `make build`: .venv/bin/python tests/gfm/test_gfm.py
(`make test-gfm`). The artifacts come from the built package (tests/gfm/artifacts.mjs).
"""
import collections
import json
import os
import re
import subprocess
import sys

import cmarkgfm
from cmarkgfm.cmark import Options

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXTENSIONS = ["autolink", "table", "strikethrough", "tagfilter", "tasklist"]
# Unsafe: raw HTML is kept as HTML, so any that got through would count as an element.
OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)\b")
HREF = re.compile(r"href=\"([^\"]*)\"")
# What GitHub turns into a mention (a notification) after rendering: an @ not preceded
# by a word character, followed by a user or team name.
MENTION = re.compile(r"(?<![A-Za-z0-9_`])@[A-Za-z0-9]")


def render(markdown):
    return cmarkgfm.markdown_to_html_with_extensions(markdown, options=OPTIONS, extensions=EXTENSIONS)


def tags(html):
    return collections.Counter(m.lower() for m in TAG.findall(html))


def check(items):
    """(passed, refused, failures) over the artifacts."""
    passed, refused, failures = 0, 0, []
    baselines = {}
    for a in items:
        key = (a["lang"], a["field"])
        if key not in baselines:
            baselines[key] = tags(render(a["baseline"]))
        if "artifact" not in a:
            refused += 1
            continue
        html = render(a["artifact"])
        got = tags(html)
        bad_links = [h for h in HREF.findall(html) if not re.fullmatch(r"#source-\d+", h)]
        bad_links += [f"mention {m!r}" for m in MENTION.findall(re.sub(r"<[^>]*>", "", html))]
        if got != baselines[key] or bad_links:
            failures.append(f"{a['lang']} / {a['field']}: {json.dumps(a['payload'])} -> {dict(got - baselines[key])} {bad_links}")
        else:
            passed += 1
    return passed, refused, failures


def self_test():
    """The check can fail: a payload escaped as the reference does makes an e-mail link."""
    assert "mailto:" in render("see security\\@evil\\.example"), "cmark-gfm links an escaped e-mail address"
    assert "mailto:" not in render("see `security@evil.example`")
    assert MENTION.search(render("see security\u2060\\@evil\\.example")), "a word joiner leaves a mention"


def main():
    self_test()
    out = subprocess.run(["node", os.path.join(ROOT, "tests", "gfm", "artifacts.mjs")], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    items = [json.loads(line) for line in out.split("\n") if line]
    passed, refused, failures = check(items)
    for f in failures[:50]:
        print("FAIL", f)
    print(f"cmark-gfm ({', '.join(EXTENSIONS)}, footnotes): {len(items)} artifacts, {refused} refused by the contract")
    print(f"{passed} passed, {len(failures)} failed")
    if failures or passed < 0.9 * len(items):
        sys.exit(1)


if __name__ == "__main__":
    main()
