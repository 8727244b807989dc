"""Writes extra golden cases (cases/*.json) that widen what the reference's own set
covers. Their expected outputs are produced by the reference itself:
    make golden-extra      (runs ../../../../shared/reference/run.sh over these cases)
"""
import copy
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SCOPE = {"tenant_id": "t1", "user_id": "u1"}
SPECS = [
    {"source_id": "doc_a", "title": "Doc A <b>", "locator": "https://example.org/a?x=1&y=2", "filename": "doc_a.md", "kind": "public"},
    {"source_id": "doc_b", "title": "文档 B", "locator": "fixture:b", "filename": "doc_b.md", "kind": "fixture"},
]
A = "Line one.\r\nThe offline mode works on desktop only.\rSecond 😀 line: 𝒳 café.\n"
A2 = A + "Added later.\n"
B = "# 资料\n方案 B 需要联网检索。\n方案 B 需要联网检索。\n"


def norm(t):
    return t.replace("\r\n", "\n").replace("\r", "\n")


def digest(t):
    return hashlib.sha256(norm(t).encode()).hexdigest()


def cite(cid, text, needle, source_id, revision=1, shift=0, quote=None):
    n = norm(text)
    start = n.index(needle) + shift
    return {"citation_id": cid, "ref": {"source_id": source_id, "revision": revision, "digest": digest(text)},
            "start": start, "end": start + len(needle), "quote": quote if quote is not None else needle}


def report(claims, **kw):
    r = {"title": "Extra case", "claims": claims}
    r.update(kw)
    return r


def claim(cid, citations, kind="fact", text="A claim.", **kw):
    c = {"claim_id": cid, "text": text, "kind": kind, "citations": citations}
    c.update(kw)
    return c


CA = cite("c_a", A, "The offline mode works on desktop only.", "doc_a")
CX = cite("c_x", A, "𝒳 café", "doc_a")
BASE = {"scope": SCOPE, "specs": SPECS, "ingest": [{"source_id": "doc_a", "content": A}]}

cases = {}


def case(name, **kw):
    c = copy.deepcopy(BASE)
    c.update(copy.deepcopy(kw))
    cases[name] = c


case("e01_astral_crlf_render", report=report([claim("k1", [CA, CX])], gaps=["Needs *review* <now>"]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "ok [link](http://x.y)"}], render=True)
case("e02_stale_revision", ingest=[{"source_id": "doc_a", "content": A}, {"source_id": "doc_a", "content": A2}],
     report=report([claim("k1", [CA])]), render=True)
case("e03_removed_then_reingested", ingest=[{"source_id": "doc_a", "content": A}, {"remove": "doc_a"},
                                            {"source_id": "doc_a", "content": A}],
     report=report([claim("k1", [CA])]), render=True)
case("e04_removed_after", remove=["doc_a"], report=report([claim("k1", [CA])]), render=True)
case("e05_shifted_range", report=report([claim("k1", [cite("c_s", A, "offline mode", "doc_a", shift=1)])]), render=True)
case("e06_read_result_variants", ingest=[
    {"source_id": "doc_a", "read_result": {"status": "ok", "data": {"filename": "doc_b.md", "content": A}}},
    {"source_id": "doc_a", "read_result": {"status": "error", "data": {"filename": "doc_a.md", "content": A}}},
    {"source_id": "doc_a", "read_result": {"status": "ok", "message": 5, "data": {"filename": "doc_a.md", "content": ""}}},
    {"source_id": "doc_a", "read_result": {"status": "ok", "extra": 1, "data": {"filename": "doc_a.md\n", "content": A}}},
    {"source_id": "doc_a", "read_result": "not an object"},
    {"source_id": "ghost", "read_result": {"status": "ok", "data": {"filename": "ghost.md", "content": A}}},
    {"source_id": "doc_a", "read_result": {"status": "ok", "message": "fine", "data": {"filename": "doc_a.md", "content": A}}},
], report=report([claim("k1", [CA])]))
case("e07_ingest_errors", ingest=[
    {"source_id": "ghost", "content": A},
    {"source_id": "doc_a", "content": " \n\t\u3000"},
    {"source_id": "doc_a", "content": "é" * 12001},
    {"source_id": "doc_a", "content": "x" * 24000},
    {"source_id": "doc_b", "content": B},
], report=report([claim("k1", [cite("c_b", B, "# 资料", "doc_b")])]), render=True)
case("e08_review_other_digest", report=report([claim("k1", [CA])]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "n", "report": report([claim("k1", [CA], text="Other.")])}],
     render=True)
case("e09_review_other_scope", report=report([claim("k1", [CA])]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "n", "scope": {"tenant_id": "t2", "user_id": "u1"}}],
     render=True)
case("e10_types_and_patterns", report={"title": "", "claims": [
    {"claim_id": "bad\n", "text": 1, "kind": "guess", "rationale": None, "citations": [
        {"citation_id": "c1", "ref": {"source_id": "doc_a", "revision": 0, "digest": "ABC"}, "start": True, "end": 1.0, "quote": ""}]},
    {"claim_id": "k2", "text": "ok", "kind": "fact", "citations": {}}], "conflicts": [{"claim_ids": ["k2"], "reason": " "}],
    "gaps": [""] * 9})
case("e11_citation_id_conflict", report=report([claim("k1", [CA]), claim("k2", [dict(CA, start=CA["start"] + 1, end=CA["end"] + 1)])]))
case("e12_conflict_duplicate_member", report=report([claim("k1", [CA]), claim("k2", [CA])],
                                                    conflicts=[{"claim_ids": ["k1", "k1"], "reason": "dup"}]))
case("e13_conflict_and_reviews", report=report([claim("k1", [CA]), claim("k2", [CX], kind="inference", rationale="why")],
                                               conflicts=[{"claim_ids": ["k1", "k2"], "reason": "opposite | ~~x~~"}]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "n1"},
              {"claim_id": "k2", "verdict": "insufficient", "note": "n2"}], render=True)
case("e14_all_supported_public", report=report([claim("k1", [CA]), claim("k2", [CX])]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "n1"},
              {"claim_id": "k2", "verdict": "supported", "note": "n2"}], render=True)
case("e15_artifact_too_large_bytes", ingest=[{"source_id": "doc_b", "content": ("证" * 790 + "\n") * 3}],
     report=report([claim(f"k{i}", [cite(f"c{i}", ("证" * 790 + "\n") * 3, "证" * 790 + "\n" + "证" * (i + 1), "doc_b")],
                          text="长" * 300) for i in range(3)]), render=True)
case("e16_quote_edge_cases", op="quote", ingest=[{"source_id": "doc_a", "content": "aaa bbb aaa\nx" + "y" * 900},
                                                  {"source_id": "doc_b", "content": B}],
     quotes=[{"source_id": "doc_a", "text": "aa", "citation_id": "q1"},
             {"source_id": "doc_a", "text": "aaa", "citation_id": "q2"},
             {"source_id": "doc_a", "text": "x" + "y" * 850, "citation_id": "q3"},
             {"source_id": "doc_b", "text": "方案 B", "citation_id": "q4"},
             {"source_id": "doc_b", "text": "# 资料\n方", "citation_id": "q5"},
             {"ref": {"source_id": "doc_b", "revision": 1, "digest": "0" * 64}, "text": "资料", "citation_id": "q6"},
             {"ref": {"source_id": "doc_b", "revision": "1", "digest": "0" * 64}, "text": "资料", "citation_id": "q7"}])
case("e17_no_citations_reviewed", report=report([claim("k1", []), claim("k2", [CA])]),
     reviews=[{"claim_id": "k1", "verdict": "supported", "note": "n"},
              {"claim_id": "k2", "verdict": "contradicted", "note": "n"}], render=True)
case("e18_whitespace_literal", report=report([claim("k1", [CA], text="a\u3000b\u00a0c\u2028d\x1ce\u200bf\ufeffg  h")],
                                             title="T\ttitle\n# not a heading"),
     render=True)
case("e19_spec_duplicate", specs=[SPECS[0], SPECS[0]], report=report([claim("k1", [CA])]))
case("e20_bad_spec", specs=[dict(SPECS[0], kind="private", filename="a.txt")], report=report([claim("k1", [CA])]))
case("e21_bad_scope", scope={"tenant_id": "", "user_id": "u1", "x": 1}, report=report([claim("k1", [CA])]))
case("e22_invalid_multi_issue", report=report([claim("k1", [dict(CA, quote="wrong")]), claim("k2", [dict(CA, quote="wrong")]),
                                              claim("k3", [CX])]), render=True)

os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
for name, c in cases.items():
    with open(os.path.join(HERE, "cases", name + ".json"), "w", encoding="utf-8") as f:
        json.dump(c, f, ensure_ascii=False, indent=2)
        f.write("\n")
print(f"wrote {len(cases)} cases")
