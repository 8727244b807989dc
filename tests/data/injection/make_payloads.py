"""Writes payloads.json: markup-injection payloads for the artifact tests (HTML and
script, Markdown links, images, autolinks and reference definitions, emphasis, code,
headings, tables, lists, footnotes, entities, bidi and zero-width characters, NUL and
control characters, GitHub references and closing keywords, very long lines), each in a
few placements."""
import json
import os

BASE = {
    "html": [
        "<script>window.__pwned=1</script>", "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>",
        "<iframe src=//evil.example></iframe>", "<svg onload=alert(1)>", "<div style=\"position:fixed\">x</div>",
        "<!-- comment -->", "<![CDATA[x]]>", "<?php echo 1 ?>", "<details open><summary>x</summary></details>",
        "</blockquote><h1>out</h1>", "<b>bold</b>", "<style>*{display:none}</style>", "<object data=x></object>",
    ],
    "links": [
        "[click](javascript:alert(1))", "[x](http://evil.example \"t\")", "[x][ref]\n\n[ref]: http://evil.example",
        "[ref]: http://evil.example", "[x](<javascript:alert(1)>)", "[![img](http://e.x/i.png)](http://e.x)",
        "[x]: <http://e.x> 'title'", "[[wiki link]]", "[x](data:text/html;base64,PHNjcmlwdD4=)", "[x](#source-1)",
    ],
    "images": ["![x](http://evil.example/p.png)", "![alt][img]\n[img]: http://e.x/i.png", "!![x](y)", "![](javascript:alert(1))"],
    "autolinks": [
        "http://evil.example", "https://evil.example/path?q=1&r=2", "www.evil.example", "mailto:a@b.example", "a@b.example",
        "<http://evil.example>", "<a@b.example>", "ftp://evil.example", "xmpp:a@b.example", "https://evil.example/(x)_y",
        "see www.evil.example/a_b.", "http://evil.example:8080/", "HTTP://EVIL.EXAMPLE", "https://xn--e1afmkfd.example",
    ],
    "emphasis": ["*em*", "**strong**", "_em_", "__strong__", "~~del~~", "***both***", "*a **b** c*", "a*b*c", "_a_b_"],
    "code": ["`code`", "``co`de``", "```\nfence\n```", "~~~\nfence\n~~~", "    indented code", "`<script>`"],
    "headings": ["# h1", "###### h6", "Setext\n===", "Setext\n---", "#hashtag", " # not", "#"],
    "tables": ["| a | b |\n|---|---|\n| 1 | 2 |", "a|b\n-|-\n1|2", "| x |", "|---|"],
    "lists": ["- item", "* item", "+ item", "1. item", "1) item", "- [ ] task", "- [x] done", "10. ten"],
    "footnotes": ["[^1]", "[^1]: note", "text[^n]\n\n[^n]: note", "^[inline]"],
    "quotes_and_rules": ["> quote", ">> nested", "---", "***", "___", "> [!NOTE]\n> alert"],
    "entities": ["&lt;script&gt;", "&amp;", "&#60;b&#62;", "&#x3C;i&#x3E;", "&copy;", "&nbsp;", "&#0;", "&unknown;"],
    "bidi_invisible": [
        "abc\u202eevil\u202c", "\u2066x\u2069", "\u200bzero\u200bwidth", "a\u200db", "\ufeffbom", "soft\u00adhyphen",
        "\u061carabic mark", "\u2067rtl\u2069", "\u200e\u200f", "tag\U000e0041\U000e007f",
    ],
    "controls": ["nul\u0000byte", "bell\u0007", "esc\u001b[31mred", "del\u007f", "c1\u0085next", "\u0008backspace", "\u000bvt\u000cff"],
    "breakouts": [
        "line\nbreak", "cr\rbreak", "crlf\r\nbreak", "a\u2028b", "a\u2029b", "\n\n# heading after blank", "\n> quote\n",
        "end\\", "back\\\\slash", "trailing  \nhard break", "<br>", "\\\n",
    ],
    "mixed": [
        "Click [here](javascript:alert(1)) or visit www.evil.example *now* <b>!</b>",
        "中文 <img src=x onerror=alert(1)> 😀 [链接](http://evil.example)",
        "$x$ $$y$$ \\(z\\)", ":emoji: :+1:", "@mention #123", "{{template}} ${expr}", "<<>>", "]]>",
    ],
    # GFM's e-mail autolinks are found after escapes and entities are decoded (cmark-gfm).
    "email_autolinks": [
        "security@evil.example", "mailto:security@evil.example", "xmpp:user@evil.example/resource", "MAILTO:a@b.example",
        "a.b+c-d_e@sub.evil.example", "a@b@c.example", "foo@bar.example.", "1@2.example", "security@evil.example/x",
        "<mailto:a@b.example>", "mailto:a@b.example?subject=x", "xmpp:a@b.example/r/s",
    ],
    # GitHub turns @name into a mention that notifies name (after rendering, so escapes do not stop it).
    "mentions": ["@octocat", "cc @github/security-team", "(@user)", "x,@y", "\u2060@joined"],
    # GitHub's autolinked references (docs: "Autolinked references and URLs"), found in the
    # rendered text whatever the escapes, and the closing keywords that act on them.
    "github_references": [
        "#123", "GH-123", "gh-7", "owner/repo#123", "jlord/sheetsee.js#26", "github-linguist/linguist#4039",
        "a5c3785", "a5c3785ed8d6a35868bc169f07e40e889087fd2e", "A5C3785ED8D6", "1234567", "jlord@a5c3785",
        "jlord/sheetsee.js@a5c3785ed8d6a35868bc169f07e40e889087fd2e", "a5c3785...b6d4e1f", "(#123)", "#123.", "PR#123",
        "https://github.com/jlord/sheetsee.js/issues/26", "https://github.com/jlord/sheetsee.js/commit/a5c3785",
        "Close #1", "Closes #1", "Closed #1", "Fix #1", "Fixes #1", "Fixed #1", "Resolve #1", "Resolves #1", "Resolved #1",
        "closes: #1", "Fixes owner/repo#2", "Resolves GH-3", "Closes https://github.com/o/r/issues/4", "fixes #1, fixes #2",
        "#\u200b123", "a5c\u00ad3785ed", "`#123`", "``#1``x",
    ],
    # Characters that hide content: variation selectors, fillers, tags.
    "hidden": [
        "\U0001f44d\U000e0100\U000e0131\U000e0142", "\U0001f44d\ufe0f ok", "\u2764\ufe0e", "x\ufe0f\ufe0f", "\u845b\U000e0100",
        "\u845b\U000e0100\U000e0101", "\u3164", "\u2800", "\u115f\u1160", "\uffa0", "a\u034fb", "\u180b\u180c\u180d\u180f",
        "\u17b4\u17b5", "\U000e0000\U000e0002", "\ufe00 selector",
    ],
}
LONG = ["A" * 600, ("word " * 120).strip(), "[" * 300, "*_" * 200, "http://e.x/" + "a" * 500, "<" * 400]

payloads = []
seen = set()


def add(p):
    if p not in seen:
        seen.add(p)
        payloads.append(p)


for group in BASE.values():
    for p in group:
        add(p)
for p in LONG:
    add(p)
# Placements: the same payloads inside ordinary text, at the start and at the end.
for group in ("html", "links", "autolinks", "emphasis", "headings", "lists", "bidi_invisible", "entities", "email_autolinks", "hidden", "github_references"):
    for p in BASE[group]:
        add(f"Plain text {p} more text")
        add(f"{p} trailing")
assert len(payloads) >= 200, len(payloads)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "payloads.json"), "w", encoding="utf-8") as f:
    json.dump(payloads, f, ensure_ascii=True, indent=0)
    f.write("\n")
print(f"wrote {len(payloads)} payloads")
