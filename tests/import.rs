//! Anthropic Messages API citations → bundle → check, on the hand-built fixtures of
//! tests/js/fixtures/anthropic (the published request and response shapes).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::bundle::{check_bundle, BundleOptions, BundleResult};
use evidence_check::contract::Scope;
use evidence_check::policy::Policy;
use evidence_check::import::anthropic::{from_anthropic_message, AnthropicOptions};
use evidence_check::{Bundle, Clock};
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/js/fixtures/anthropic/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
fn options() -> AnthropicOptions {
    AnthropicOptions {
        scope: Scope { tenant_id: "t".into(), user_id: "u".into() },
        source_ids: Vec::new(),
        fetched_at: Some("2026-11-29T00:00:00+00:00".into()),
        uncited_as_gaps: false,
        policy: Policy::reference(),
        title: None,
    }
}
fn check(bundle: &Bundle) -> BundleResult {
    check_with(bundle, Policy::reference())
}
fn check_with(bundle: &Bundle, policy: Policy) -> BundleResult {
    // Round-trip through JSON: what checkBundle gets from a file.
    let text = serde_json::to_string(bundle).unwrap();
    let parsed = <Bundle as evidence_check::Contract>::from_json_with(&text, &policy).unwrap();
    let options = BundleOptions { policy, ..BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap()) };
    check_bundle(&parsed, &options).unwrap()
}
fn units(bundle: &Bundle) -> Vec<(String, String)> {
    bundle.import_notes.iter().filter_map(|n| Some((n.citation_id.clone()?, n.unit.clone()?))).collect()
}
fn codes(r: &BundleResult) -> Vec<(String, String)> {
    r.assessment.issues.iter().map(|i| (i.citation_id.clone().unwrap_or_default(), i.code.to_owned())).collect()
}

#[test]
fn every_valid_citation_holds_in_either_unit() {
    let bundle = from_anthropic_message(&fixture("request.json"), &fixture("response.json"), &options()).unwrap();
    let ids: Vec<(&str, &str, &str)> = bundle.sources.iter().map(|s| (s.spec.source_id.as_str(), s.spec.title.as_str(), s.spec.locator.as_str())).collect();
    assert_eq!(ids, vec![("doc-0", "Nature facts", "anthropic:document/0"), ("doc-1", "多语言 facts", "anthropic:document/1"), ("doc-2", "Blocks", "anthropic:document/2")]);
    assert_eq!(bundle.sources[2].content, "First block. Second block. Third block.");
    let claims: Vec<&str> = bundle.report.claims.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(claims, vec!["the grass is green", "the sky is blue", "The Earth is round (UTF-16 indices)", "Grass is green, with an emoji (code-point indices)", "The second and third blocks"]);
    let expected: Vec<(String, String)> = [("cite-0", "code_point"), ("cite-1", "code_point"), ("cite-2", "utf16"), ("cite-3", "code_point"), ("cite-4", "block")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(units(&bundle), expected);
    let cjk = &bundle.report.claims[2].citations[0];
    assert_eq!((cjk.start, cjk.end, cjk.quote.as_str()), (9, 15, "地球是圆的。"), "UTF-16 [10, 16) is code points [9, 15)");
    let blocks = &bundle.report.claims[4].citations[0];
    assert_eq!((blocks.start, blocks.end), (13, 39));
    let r = check(&bundle);
    assert_eq!(r.assessment.status.as_str(), "needs_review");
    assert!(r.assessment.issues.is_empty());
    assert!(r.assessment.claims.iter().all(|(_, s)| s.as_str() == "pending_review"));
    let artifact = r.artifact.unwrap().content;
    assert!(artifact.contains("> 地球是圆的。"), "{artifact}");
}

#[test]
fn a_tampered_cited_text_is_a_quote_mismatch_never_corrected() {
    let bundle = from_anthropic_message(&fixture("request.json"), &fixture("response-tampered.json"), &options()).unwrap();
    let tampered = &bundle.report.claims[1].citations[0];
    assert_eq!((tampered.start, tampered.end, tampered.quote.as_str()), (20, 36, "The sky is green."), "the model's range and quote, unchanged");
    assert_eq!(units(&bundle)[1], ("cite-1".to_string(), "unmatched".to_string()));
    let r = check(&bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert_eq!(codes(&r), vec![("cite-1".to_string(), "quote_mismatch".to_string())]);
    assert_eq!(r.assessment.state("claim-1").unwrap().as_str(), "invalid");
    assert_eq!(r.render_error.unwrap().code, "report_invalid");
}

#[test]
fn a_document_changed_after_the_response_makes_its_citations_invalid() {
    let bundle = from_anthropic_message(&fixture("request-changed.json"), &fixture("response.json"), &options()).unwrap();
    let r = check(&bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert_eq!(codes(&r), vec![("cite-0".to_string(), "quote_mismatch".to_string()), ("cite-1".to_string(), "quote_mismatch".to_string())]);
    let states: Vec<&str> = r.assessment.claims.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(states, vec!["invalid", "invalid", "pending_review", "pending_review", "pending_review"]);
    // The hint says where the unchanged quote is now; it is not applied.
    let hint = r.assessment.issues[1].hint.as_ref().unwrap();
    assert_eq!((hint.start, hint.end), (Some(24), Some(40)));
}

#[test]
fn options_name_sources_and_keep_uncited_text_as_gaps() {
    let mut o = options();
    o.source_ids = vec!["nature".into(), "multi".into(), "blocks".into()];
    o.uncited_as_gaps = true;
    let bundle = from_anthropic_message(&fixture("request.json"), &fixture("response.json"), &o).unwrap();
    assert_eq!(bundle.sources[0].spec.filename, "nature.md");
    assert_eq!(bundle.report.claims[0].citations[0].source_ref.source_id, "nature");
    assert_eq!(bundle.report.gaps, vec!["Here is what the documents say:", "and"]);
    assert_eq!(check(&bundle).assessment.status.as_str(), "partial");
}

#[test]
fn page_location_is_refused_naming_the_document() {
    let request = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}, "title": "Annual report"}]}]});
    let response = json!({"content": [{"type": "text", "text": "Revenue grew", "citations": [
        {"type": "page_location", "cited_text": "Revenue grew 5%", "document_index": 0, "document_title": "Annual report", "start_page_number": 2, "end_page_number": 3}]}]});
    let e = from_anthropic_message(&request, &response, &options()).unwrap_err();
    assert_eq!(e.violations[0].path, "/response/content/0/citations/0");
    assert_eq!(
        e.violations[0].message,
        "page_location cites PDF pages of document 0 (\"Annual report\", /request/messages/0/content/0): PDF text is not ours to extract; send the document as text"
    );
    let response = json!({"content": [{"type": "text", "text": "x", "citations": [{"type": "char_location", "cited_text": "x", "document_index": 3, "start_char_index": 0, "end_char_index": 1}]}]});
    let e = from_anthropic_message(&request, &response, &options()).unwrap_err();
    assert_eq!(e.violations[0].path, "/response/content/0/citations/0/document_index");
}

#[test]
fn crlf_documents_map_to_the_normalised_text_and_search_results_are_refused() {
    let request = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "line one\r\nline two\r\nline three"}}]}]});
    let cite = |s: u64, e: u64, t: &str| json!({"type": "char_location", "cited_text": t, "document_index": 0, "document_title": null, "start_char_index": s, "end_char_index": e});
    let response = json!({"content": [
        {"type": "text", "text": "two", "citations": [cite(10, 18, "line two")]},
        {"type": "text", "text": "two and three", "citations": [cite(10, 30, "line two\r\nline three")]}]});
    let bundle = from_anthropic_message(&request, &response, &options()).unwrap();
    assert_eq!(bundle.sources[0].spec.title, "Document 0");
    let spans: Vec<(u64, u64, &str)> = bundle.report.claims.iter().map(|c| (c.citations[0].start, c.citations[0].end, c.citations[0].quote.as_str())).collect();
    assert_eq!(spans, vec![(9, 17, "line two"), (9, 28, "line two\nline three")]);
    assert!(check(&bundle).assessment.issues.is_empty());
    let response = json!({"content": [{"type": "text", "text": "x", "citations": [{"type": "web_search_result_location", "cited_text": "x", "url": "https://example.org", "title": "t", "encrypted_index": "e"}]}]});
    let e = from_anthropic_message(&request, &response, &options()).unwrap_err();
    assert_eq!(e.violations[0].path, "/response/content/0/citations/0/type");
}

/// A text document of `lines` lines (CRLF, with an é and an emoji each) and a response
/// citing every line once, ten citations a text block: the even lines by code points,
/// the odd ones by UTF-16 units.
fn many_citations(lines: usize) -> (Value, Value) {
    let line = |i: usize| format!("Zeile é 😀 number {i}.");
    let data: String = (0..lines).map(|i| format!("{}\r\n", line(i))).collect();
    let (mut cp, mut u16) = (0usize, 0usize);
    let mut cites = Vec::new();
    for i in 0..lines {
        let text = line(i);
        let (n_cp, n_u16) = (text.chars().count(), text.encode_utf16().count());
        let (s, e) = if i % 2 == 0 { (cp, cp + n_cp) } else { (u16, u16 + n_u16) };
        cites.push(json!({"type": "char_location", "cited_text": text, "document_index": 0, "start_char_index": s, "end_char_index": e}));
        cp += n_cp + 2;
        u16 += n_u16 + 2;
    }
    let blocks: Vec<Value> = cites.chunks(10).enumerate().map(|(k, c)| json!({"type": "text", "text": format!("claim {k}"), "citations": c})).collect();
    let request = json!({"messages": [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": data}}]}]});
    (request, json!({"content": blocks}))
}

#[test]
fn each_citation_costs_a_lookup_not_a_walk_of_its_document() {
    let mut o = options();
    o.policy = Policy::documents();
    // Offset lookups (characters read and search steps) of n citations over n lines, and
    // of 2n over 2n lines: twice as many, not four times.
    let steps = |lines: usize| {
        let (request, response) = many_citations(lines);
        let before = evidence_check::citation::offset_steps();
        let bundle = from_anthropic_message(&request, &response, &o).unwrap();
        let steps = evidence_check::citation::offset_steps() - before;
        assert_eq!(units(&bundle).iter().filter(|(_, u)| u == "utf16").count(), lines / 2);
        if lines <= 2000 {
            assert!(check_with(&bundle, Policy::documents()).assessment.issues.is_empty());
        }
        steps
    };
    let (a, b) = (steps(2000), steps(4000));
    let ratio = b as f64 / a as f64;
    assert!(ratio <= 2.2, "doubling the citations and the document multiplied the steps by {ratio:.2} ({a} -> {b})");
}

#[test]
fn a_response_with_more_citations_than_the_policy_allows_is_refused_before_any_is_read() {
    let (request, response) = many_citations(49);
    let e = from_anthropic_message(&request, &response, &options()).unwrap_err();
    assert_eq!(e.violations.len(), 1);
    let v = &e.violations[0];
    assert_eq!((v.path.as_str(), v.code.code()), ("/response/content", "too_long"));
    assert!(v.message.starts_with("the response has 49 citations, over the limit of 48 citations a response (max_response_citations); raise it"), "{}", v.message);
    let (request, response) = many_citations(48);
    assert!(from_anthropic_message(&request, &response, &options()).is_ok());
    let mut o = options();
    o.policy = Policy::documents();
    let (request, response) = many_citations(49);
    assert!(from_anthropic_message(&request, &response, &o).is_ok());
}

#[test]
fn a_block_range_the_document_does_not_have_is_reported_by_the_check() {
    // Document 2 has three blocks: [3, 5) is not in it, even though code points [3, 5)
    // of its text are "st" (which is what the model claims).
    let mut response = fixture("response.json");
    let cite = &mut response["content"].as_array_mut().unwrap().last_mut().unwrap()["citations"][0];
    cite["start_block_index"] = json!(3);
    cite["end_block_index"] = json!(5);
    cite["cited_text"] = json!("st");
    let bundle = from_anthropic_message(&fixture("request.json"), &response, &options()).unwrap();
    assert_eq!(units(&bundle)[4], ("cite-4".to_string(), "unmatched".to_string()));
    let c = &bundle.report.claims[4].citations[0];
    assert_eq!((c.start, c.end), (39, 41), "block 3 starts at the text's end (39), block 5 two code points past it");
    let r = check(&bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert_eq!(codes(&r), vec![("cite-4".to_string(), "range_out_of_bounds".to_string())]);
    // A range that ends one block past the last: from its start to one past the end.
    cite_range(&mut response, 2, 4);
    let bundle = from_anthropic_message(&fixture("request.json"), &response, &options()).unwrap();
    let c = &bundle.report.claims[4].citations[0];
    assert_eq!((c.start, c.end), (27, 40));
    assert_eq!(codes(&check(&bundle)), vec![("cite-4".to_string(), "range_out_of_bounds".to_string())]);
}

fn cite_range(response: &mut Value, start: u64, end: u64) {
    let cite = &mut response["content"].as_array_mut().unwrap().last_mut().unwrap()["citations"][0];
    cite["start_block_index"] = json!(start);
    cite["end_block_index"] = json!(end);
}

#[test]
fn a_range_that_starts_or_ends_inside_a_crlf_holds_its_text() {
    let request = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "line one\r\nline two"}},
        {"type": "document", "source": {"type": "content", "content": [{"type": "text", "text": "block one\r"}, {"type": "text", "text": "\nblock two"}]}}]}]});
    let cite = |s: u64, e: u64, t: &str| json!({"type": "char_location", "cited_text": t, "document_index": 0, "start_char_index": s, "end_char_index": e});
    let response = json!({"content": [
        {"type": "text", "text": "starts on the LF", "citations": [cite(9, 14, "\nline")]},
        {"type": "text", "text": "ends on the LF", "citations": [cite(4, 9, " one\r")]},
        {"type": "text", "text": "the LF alone", "citations": [cite(9, 10, "\n")]},
        {"type": "text", "text": "a block that starts on the LF", "citations": [
            {"type": "content_block_location", "cited_text": "\nblock two", "document_index": 1, "start_block_index": 1, "end_block_index": 2}]}]});
    let bundle = from_anthropic_message(&request, &response, &options()).unwrap();
    let spans: Vec<(u64, u64, &str)> = bundle.report.claims.iter().map(|c| (c.citations[0].start, c.citations[0].end, c.citations[0].quote.as_str())).collect();
    assert_eq!(spans, vec![(8, 13, "\nline"), (4, 9, " one\n"), (8, 9, "\n"), (9, 19, "\nblock two")]);
    assert!(units(&bundle).iter().all(|(_, u)| u != "unmatched"), "{:?}", units(&bundle));
    assert!(check(&bundle).assessment.issues.is_empty(), "{:?}", codes(&check(&bundle)));
}

#[test]
fn uncited_punctuation_and_whitespace_are_no_gaps() {
    let request = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "Grass is green."}}]}]});
    let cited = json!({"type": "text", "text": "Grass is green", "citations": [
        {"type": "char_location", "cited_text": "Grass is green.", "document_index": 0, "start_char_index": 0, "end_char_index": 15}]});
    let uncited = [".", " ", "\n\n", ", — ", "…", "!?", "。", "、", "* ", "🙂", "and", "草是绿的", "Note 2"];
    let mut blocks = vec![cited];
    blocks.extend(uncited.iter().map(|t| json!({"type": "text", "text": t})));
    let mut o = options();
    o.uncited_as_gaps = true;
    let bundle = from_anthropic_message(&request, &json!({"content": blocks}), &o).unwrap();
    assert_eq!(bundle.report.gaps, vec!["and", "草是绿的", "Note 2"]);
}
