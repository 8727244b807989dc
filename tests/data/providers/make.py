#!/usr/bin/env python3
"""Writes the provider fixtures of this directory (see README.md): the request, the
response and the host's snapshots of each case, offsets computed from the texts."""
import copy, json, os

HERE = os.path.dirname(os.path.abspath(__file__))

def cp(text, quote, nth=1):
    """Code-point [start, end) of the nth occurrence of quote."""
    at = -1
    for _ in range(nth):
        at = text.index(quote, at + 1)
    return at, at + len(quote)

def u16(text, i):
    return len(text[:i].encode("utf-16-le")) // 2

def b8(text, i):
    return len(text[:i].encode("utf-8"))

def write(provider, name, request, response, sources):
    d = os.path.join(HERE, provider)
    os.makedirs(d, exist_ok=True)
    for part, v in (("request", request), ("response", response), ("sources", sources)):
        if v is None:
            continue
        with open(os.path.join(d, f"{name}.{part}.json"), "w", encoding="utf-8") as f:
            json.dump(v, f, ensure_ascii=False, indent=2)
            f.write("\n")

ASCII = "The Atlas 5 tent weighs 2.1 kg. It sleeps two people. The fly is rated to 3000 mm of water."
CJK = "露营指南 🏕️:帐篷重2.1公斤。睡袋适合零下5度 ❄️。炉头使用丁烷气罐 🔥,每罐可烧两小时。"
PAGES = "Page one: the warranty lasts two years.\fPage two: returns are free within 30 days.\fPage three: repairs are done in Lyon."
CHUNKS = ["Chapter 1. Stoves burn butane. ", "Chapter 2. A canister lasts two hours. ", "Chapter 3. Keep stoves outside the tent."]

# ---------------------------------------------------------------- Bedrock Converse
def bedrock_doc(name, text=None, chunks=None, fmt="txt"):
    source = {"text": text} if chunks is None else {"content": [{"text": c} for c in chunks]}
    if fmt == "pdf":
        source = {"bytes": "JVBERi0xLjcK"}
    return {"document": {"format": fmt, "name": name, "source": source, "citations": {"enabled": True}}}

def bedrock_request(docs, question):
    return {"modelId": "anthropic.claude-3-5-sonnet-20241022-v2:0",
            "messages": [{"role": "user", "content": docs + [{"text": question}]}]}

def char_cite(doc, text, quote, unit="cp", title=None, nth=1):
    s, e = cp(text, quote, nth)
    if unit == "utf16":
        s, e = u16(text, s), u16(text, e)
    c = {"location": {"documentChar": {"documentIndex": doc, "start": s, "end": e}}, "sourceContent": [{"text": quote}]}
    if title:
        c["title"] = title
    return c

def bedrock_response(blocks):
    content = [{"citationsContent": {"content": [{"text": t}], "citations": cs}} for t, cs in blocks]
    return {"output": {"message": {"role": "assistant", "content": content}}, "stopReason": "end_turn",
            "usage": {"inputTokens": 120, "outputTokens": 40, "totalTokens": 160}, "metrics": {"latencyMs": 900}}

def bedrock():
    req = bedrock_request([bedrock_doc("atlas-spec", ASCII)], "How heavy is the tent?")
    resp = bedrock_response([
        ("The tent weighs 2.1 kg.", [char_cite(0, ASCII, "The Atlas 5 tent weighs 2.1 kg.", title="atlas-spec")]),
        ("It sleeps two and its fly is rated to 3000 mm.", [
            char_cite(0, ASCII, "It sleeps two people."),
            char_cite(0, ASCII, "The fly is rated to 3000 mm of water."),
            {"title": "Atlas review", "location": {"web": {"url": "https://example.org/atlas-review", "domain": "example.org"}}},
        ]),
    ])
    src = {"0": {"sourceId": "atlas", "text": ASCII}}
    write("bedrock", "ascii", req, resp, src)
    # Tampered: one cited text changed, one range moved by two.
    t = copy.deepcopy(resp)
    t["output"]["message"]["content"][0]["citationsContent"]["citations"][0]["sourceContent"][0]["text"] = "The Atlas 5 tent weighs 1.2 kg."
    loc = t["output"]["message"]["content"][1]["citationsContent"]["citations"][1]["location"]["documentChar"]
    loc["start"] += 2; loc["end"] += 2
    write("bedrock", "tampered", None, t, None)
    # Dropped: sourceContent left out (the field adapters drop).
    d = copy.deepcopy(resp)
    for b in d["output"]["message"]["content"]:
        for c in b["citationsContent"]["citations"]:
            c.pop("sourceContent", None)
    write("bedrock", "dropped", None, d, None)
    # CJK + emoji, code-point offsets; and the same in UTF-16 units.
    req = bedrock_request([bedrock_doc("露营指南", CJK)], "帐篷多重?")
    blocks = lambda unit: [
        ("帐篷重2.1公斤。", [char_cite(0, CJK, "帐篷重2.1公斤。", unit)]),
        ("炉头用丁烷气罐,每罐两小时。", [char_cite(0, CJK, "炉头使用丁烷气罐 🔥,每罐可烧两小时。", unit)]),
    ]
    write("bedrock", "cjk-emoji", req, bedrock_response(blocks("cp")), {"0": {"sourceId": "camping", "text": CJK}})
    write("bedrock", "cjk-emoji-utf16", None, bedrock_response(blocks("utf16")), None)
    # Two documents: a PDF cited by pages (the host holds its text, pages split by form
    # feeds) and a custom-content document cited by chunks.
    req = bedrock_request([bedrock_doc("warranty", fmt="pdf"), bedrock_doc("stoves", chunks=CHUNKS)], "Warranty and stoves?")
    resp = bedrock_response([
        ("Returns are free for 30 days.", [{"location": {"documentPage": {"documentIndex": 0, "start": 2, "end": 2}}, "sourceContent": [{"text": "returns are free within 30 days."}]}]),
        ("A canister lasts two hours, outside the tent.", [
            {"location": {"documentChunk": {"documentIndex": 1, "start": 1, "end": 2}}, "sourceContent": [{"text": "A canister lasts "}, {"text": "two hours."}]},
            {"location": {"documentChunk": {"documentIndex": 1, "start": 2, "end": 2}}, "sourceContent": [{"text": "Keep stoves outside the tent."}]},
        ]),
    ])
    write("bedrock", "two-docs", req, resp, {"0": {"sourceId": "warranty", "text": PAGES}, "stoves": {"sourceId": "stoves", "text": "".join(CHUNKS)}})

# ---------------------------------------------------------------- OpenAI Responses
def openai_request(include=True):
    r = {"model": "gpt-4.1", "input": "What do the files say?", "tools": [{"type": "file_search", "vector_store_ids": ["vs_123"]}]}
    if include:
        r["include"] = ["file_search_call.results"]
    return r

def openai_response(answer, annotations, results):
    return {"id": "resp_1", "object": "response", "created_at": 1767225600, "status": "completed", "model": "gpt-4.1",
            "output": [
                {"id": "fs_1", "type": "file_search_call", "status": "completed", "queries": ["files"], "results": results},
                {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": answer, "annotations": annotations}]},
            ]}

def result(file_id, filename, text, score=0.9):
    return {"file_id": file_id, "filename": filename, "score": score, "attributes": {}, "text": text}

def fc(file_id, filename, index):
    return {"type": "file_citation", "file_id": file_id, "filename": filename, "index": index}

def openai():
    answer = "The tent weighs 2.1 kg. It sleeps two. See the review for more."
    i1 = answer.index("kg.") + 3
    i2 = answer.index("two.") + 4
    s, e = cp(answer, "See the review for more.")
    anns = [fc("file-atlas", "atlas.txt", i1), fc("file-atlas", "atlas.txt", i2),
            {"type": "url_citation", "url": "https://example.org/atlas-review", "title": "Atlas review", "start_index": s, "end_index": e}]
    results = [result("file-atlas", "atlas.txt", "The Atlas 5 tent weighs 2.1 kg."), result("file-atlas", "atlas.txt", "It sleeps two people.", 0.8)]
    resp = openai_response(answer, anns, results)
    src = {"file-atlas": {"sourceId": "atlas", "text": ASCII}}
    write("openai", "ascii", openai_request(), resp, src)
    t = copy.deepcopy(resp)
    t["output"][0]["results"][1]["text"] = "It sleeps three people."
    write("openai", "tampered", None, t, None)
    d = copy.deepcopy(resp)
    d["output"][0]["results"] = None
    write("openai", "dropped", openai_request(include=False), d, None)
    answer = "帐篷重2.1公斤 🏕️。炉头每罐可烧两小时 🔥。"
    i1 = answer.index("。") + 1
    i2 = len(answer)
    anns = [fc("file-camp", "露营.txt", i1), fc("file-camp", "露营.txt", i2)]
    results = [result("file-camp", "露营.txt", "帐篷重2.1公斤。"), result("file-camp", "露营.txt", "炉头使用丁烷气罐 🔥,每罐可烧两小时。")]
    write("openai", "cjk-emoji", openai_request(), openai_response(answer, anns, results), {"file-camp": {"sourceId": "camping", "text": CJK}})
    answer = "Returns are free for 30 days. Stoves burn butane."
    i1 = answer.index("days.") + 5
    anns = [fc("file-warranty", "warranty.txt", i1), fc("file-stoves", "stoves.txt", len(answer))]
    results = [result("file-warranty", "warranty.txt", "Page two: returns are free within 30 days."), result("file-stoves", "stoves.txt", "Stoves burn butane.")]
    write("openai", "two-docs", openai_request(), openai_response(answer, anns, results),
          {"file-warranty": {"sourceId": "warranty", "text": PAGES}, "file-stoves": {"sourceId": "stoves", "text": "".join(CHUNKS)}})

# ---------------------------------------------------------------- Gemini
def gemini_request():
    return {"contents": [{"role": "user", "parts": [{"text": "What do the documents say?"}]}],
            "tools": [{"retrieval": {"vertexRagStore": {"ragResources": [{"ragCorpus": "projects/p/locations/l/ragCorpora/c"}]}}}]}

def seg(parts, part, quote):
    text = parts[part]
    s, e = cp(text, quote)
    return {"partIndex": part, "startIndex": b8(text, s), "endIndex": b8(text, e), "text": quote}

def gemini_response(parts, supports, chunks):
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": p} for p in parts]}, "finishReason": "STOP",
                            "groundingMetadata": {"groundingChunks": chunks, "groundingSupports": supports, "retrievalQueries": ["documents"]}}],
            "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 30}, "modelVersion": "gemini-2.5-flash"}

def rc(uri, title, text):
    return {"retrievedContext": {"uri": uri, "title": title, "text": text}}

def gemini():
    parts = ["The tent weighs 2.1 kg. ", "It sleeps two people. Reviewers like it."]
    chunks = [rc("gs://docs/atlas.txt", "atlas.txt", "The Atlas 5 tent weighs 2.1 kg."), rc("gs://docs/atlas.txt", "atlas.txt", "It sleeps two people."),
              {"web": {"uri": "https://example.org/atlas-review", "title": "example.org"}}]
    supports = [
        {"segment": seg(parts, 0, "The tent weighs 2.1 kg."), "groundingChunkIndices": [0], "confidenceScores": [0.9]},
        {"segment": seg(parts, 1, "It sleeps two people."), "groundingChunkIndices": [1], "confidenceScores": [0.8]},
        {"segment": seg(parts, 1, "Reviewers like it."), "groundingChunkIndices": [2], "confidenceScores": [0.7]},
    ]
    resp = gemini_response(parts, supports, chunks)
    src = {"gs://docs/atlas.txt": {"sourceId": "atlas", "text": ASCII}}
    write("gemini", "ascii", gemini_request(), resp, src)
    t = copy.deepcopy(resp)
    t["candidates"][0]["groundingMetadata"]["groundingChunks"][1]["retrievedContext"]["text"] = "It sleeps three people."
    write("gemini", "tampered", None, t, None)
    o = copy.deepcopy(resp)
    o["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]["endIndex"] -= 3
    write("gemini", "tampered-offsets", None, o, None)
    # Dropped: the zero partIndex / startIndex left out (proto3 JSON), and a chunk's text.
    d = copy.deepcopy(resp)
    s0 = d["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]
    del s0["partIndex"]; del s0["startIndex"]
    del d["candidates"][0]["groundingMetadata"]["groundingChunks"][1]["retrievedContext"]["text"]
    write("gemini", "dropped", None, d, None)
    parts = ["简答:帐篷重2.1公斤 🏕️。其余见下。", "炉头每罐可烧两小时 🔥,睡袋适合零下5度 ❄️。"]
    chunks = [rc("gs://docs/camping.txt", "露营指南", "帐篷重2.1公斤。"), rc("gs://docs/camping.txt", "露营指南", "炉头使用丁烷气罐 🔥,每罐可烧两小时。"), rc("gs://docs/camping.txt", "露营指南", "睡袋适合零下5度 ❄️。")]
    supports = [
        {"segment": seg(parts, 0, "帐篷重2.1公斤 🏕️。"), "groundingChunkIndices": [0]},
        {"segment": seg(parts, 1, "炉头每罐可烧两小时 🔥,"), "groundingChunkIndices": [1]},
        {"segment": seg(parts, 1, "睡袋适合零下5度 ❄️。"), "groundingChunkIndices": [2]},
    ]
    write("gemini", "cjk-emoji", gemini_request(), gemini_response(parts, supports, chunks), {"gs://docs/camping.txt": {"sourceId": "camping", "text": CJK}})
    parts = ["Returns are free for 30 days, and stoves burn butane."]
    chunks = [rc("gs://docs/warranty.txt", "warranty", "returns are free within 30 days."), rc("gs://docs/stoves.txt", "stoves", "Stoves burn butane.")]
    supports = [{"segment": seg(parts, 0, "Returns are free for 30 days,"), "groundingChunkIndices": [0]},
                {"segment": seg(parts, 0, "stoves burn butane."), "groundingChunkIndices": [1]}]
    write("gemini", "two-docs", gemini_request(), gemini_response(parts, supports, chunks),
          {"gs://docs/warranty.txt": {"sourceId": "warranty", "text": PAGES}, "gs://docs/stoves.txt": {"sourceId": "stoves", "text": "".join(CHUNKS)}})

# ---------------------------------------------------------------- adapters
def adapters():
    # Vercel AI SDK generateText result, Anthropic provider: citedText passed through.
    res = {"text": "The tent weighs 2.1 kg and sleeps two.", "finishReason": "stop",
           "sources": [
               {"type": "source", "sourceType": "document", "id": "src-0", "mediaType": "text/plain", "title": "atlas-spec", "filename": "atlas.txt",
                "providerMetadata": {"anthropic": {"citedText": "The Atlas 5 tent weighs 2.1 kg.", "startCharIndex": 0, "endCharIndex": 31}}},
               {"type": "source", "sourceType": "document", "id": "src-1", "mediaType": "text/plain", "title": "atlas-spec", "filename": "atlas.txt",
                "providerMetadata": {"anthropic": {"citedText": "It sleeps two people.", "startCharIndex": 32, "endCharIndex": 53}}},
               {"type": "source", "sourceType": "url", "id": "src-2", "url": "https://example.org/atlas-review", "title": "Atlas review"}]}
    write("vercel", "anthropic", None, res, {"atlas.txt": {"sourceId": "atlas", "text": ASCII}})
    # Google provider: the raw groundingMetadata under providerMetadata.google.
    text = "The tent weighs 2.1 kg. It sleeps two people."
    g = {"groundingChunks": [rc("gs://docs/atlas.txt", "atlas.txt", "The Atlas 5 tent weighs 2.1 kg."), rc("gs://docs/atlas.txt", "atlas.txt", "It sleeps two people.")],
         "groundingSupports": [{"segment": seg([text], 0, "The tent weighs 2.1 kg."), "groundingChunkIndices": [0]},
                               {"segment": seg([text], 0, "It sleeps two people."), "groundingChunkIndices": [1]}]}
    write("vercel", "google", None, {"text": text, "sources": [], "providerMetadata": {"google": {"groundingMetadata": g}}}, {"gs://docs/atlas.txt": {"sourceId": "atlas", "text": ASCII}})
    # LangChain AIMessage with standard citation blocks (Anthropic origin: cited_text is the source's).
    msg = {"type": "ai", "content": [
        {"type": "text", "text": "The tent weighs 2.1 kg.", "annotations": [
            {"type": "citation", "title": "atlas-spec", "cited_text": "The Atlas 5 tent weighs 2.1 kg.", "extras": {"document_index": 0, "start_char_index": 0, "end_char_index": 31}}]},
        {"type": "text", "text": "Reviewers like it.", "annotations": [{"type": "citation", "url": "https://example.org/atlas-review", "title": "Atlas review"}]}],
        "response_metadata": {"model_provider": "anthropic"}}
    write("langchain", "anthropic", None, msg, {"0": {"sourceId": "atlas", "text": ASCII}})
    t = copy.deepcopy(msg)
    t["content"][0]["annotations"][0]["cited_text"] = "The Atlas 5 tent weighs 1.2 kg."
    write("langchain", "tampered", None, t, None)
    goog = {"type": "ai", "content": [{"type": "text", "text": "The tent weighs 2.1 kg.", "annotations": [
        {"type": "citation", "url": "https://example.org/atlas", "title": "example.org", "start_index": 0, "end_index": 23, "cited_text": "The tent weighs 2.1 kg."}]}],
        "response_metadata": {"model_provider": "google_genai"}}
    write("langchain", "google", None, goog, None)

bedrock(); openai(); gemini(); adapters()
