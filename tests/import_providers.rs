//! Bedrock, OpenAI and Gemini citations → bundle → check, on the fixtures of
//! tests/data/providers (made from the providers' documented shapes; see its README).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;

use evidence_check::bundle::{check_bundle, BundleOptions, BundleResult};
use evidence_check::contract::Scope;
use evidence_check::error::Coded;
use evidence_check::import::provider::{HostSource, ProviderImport, ProviderOptions};
use evidence_check::import::{bedrock, detect_provider, from_model_response, gemini, openai};
use evidence_check::{Bundle, Clock};
use serde_json::{json, Value};

fn read(provider: &str, name: &str) -> Value {
    let path = format!("{}/tests/data/providers/{provider}/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

fn options(sources: &Value) -> ProviderOptions {
    let mut o = ProviderOptions::new(Scope { tenant_id: "t".into(), user_id: "u".into() });
    o.fetched_at = Some("2026-11-29T00:00:00+00:00".into());
    o.sources = sources
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), HostSource { source_id: v["sourceId"].as_str().unwrap().into(), text: v["text"].as_str().unwrap().into(), title: None, locator: None }))
        .collect::<BTreeMap<_, _>>();
    o
}

/// Imports `<provider>/<response>.response.json` with the request and sources of `<case>`.
fn import(provider: &str, case: &str, response: &str) -> ProviderImport {
    let request = read(provider, &format!("{case}.request"));
    let o = options(&read(provider, &format!("{case}.sources")));
    let response = read(provider, &format!("{response}.response"));
    let out = from_model_response(&request, &response, None, &o).unwrap();
    assert_eq!(out.provider, provider);
    out
}

fn check(bundle: &Bundle) -> BundleResult {
    // Round-trip through JSON: what checkBundle gets from a file.
    let text = serde_json::to_string(bundle).unwrap();
    let parsed = <Bundle as evidence_check::Contract>::from_json(&text).unwrap();
    let options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap());
    check_bundle(&parsed, &options).unwrap()
}

fn issue_codes(i: &ProviderImport) -> Vec<(&str, &str)> {
    i.issues.iter().map(|x| (x.path.as_str(), x.code)).collect()
}

fn units(bundle: &Bundle) -> Vec<String> {
    bundle.import_notes.iter().filter_map(|n| n.unit.clone()).collect()
}

/// Every citation holds: the check finds no issue, every claim waits for review.
fn holds(i: &ProviderImport) -> BundleResult {
    let r = check(&i.bundle);
    assert!(r.assessment.issues.is_empty(), "{:?}", r.assessment.issues);
    assert_eq!(r.assessment.status.as_str(), "needs_review");
    assert!(r.assessment.claims.iter().all(|(_, s)| s.as_str() == "pending_review"));
    r
}

/// Each citation's quote is the host snapshot's text at its range.
fn quotes_are_the_snapshots(i: &ProviderImport) {
    for claim in &i.bundle.report.claims {
        for c in &claim.citations {
            let src = i.bundle.sources.iter().find(|s| s.spec.source_id == c.source_ref.source_id).unwrap();
            let text: String = src.content.chars().skip(c.start as usize).take((c.end - c.start) as usize).collect();
            assert_eq!(text, c.quote);
        }
    }
}

// ---- Bedrock -----------------------------------------------------------------------

#[test]
fn bedrock_char_citations_hold_and_web_is_existence_only() {
    let i = import("bedrock", "ascii", "ascii");
    holds(&i);
    quotes_are_the_snapshots(&i);
    assert_eq!(i.bundle.report.claims.len(), 2);
    assert_eq!(units(&i.bundle), ["code_point", "code_point", "code_point"]);
    assert_eq!(issue_codes(&i), [("/output/message/content/1/citationsContent/citations/2", "existence_only")]);
    assert!(i.issues[0].message.contains("https://example.org/atlas-review"));
    assert_eq!(i.bundle.sources[0].spec.title, "atlas-spec");
}

#[test]
fn bedrock_unit_is_code_points_on_astral_text_and_utf16_when_the_documents_say_so() {
    // The fixture's ranges are code points (Claude on Bedrock counts as Anthropic does):
    // after the astral 🏕 they differ from UTF-16 units by one.
    let i = import("bedrock", "cjk-emoji", "cjk-emoji");
    holds(&i);
    quotes_are_the_snapshots(&i);
    assert_eq!(units(&i.bundle), ["code_point", "code_point"]);
    let c = &i.bundle.report.claims[0].citations[0];
    assert_eq!((c.start, c.end, c.quote.as_str()), (8, 17, "帐篷重2.1公斤。"));
    // The same response in UTF-16 units: settled from the documents, the same ranges.
    let u = import("bedrock", "cjk-emoji", "cjk-emoji-utf16");
    holds(&u);
    assert_eq!(units(&u.bundle), ["utf16", "utf16"]);
    assert_eq!(u.bundle.report, i.bundle.report);
    // A range in the other unit than the response's own is flagged, never corrected.
    let mut mixed = read("bedrock", "cjk-emoji.response");
    let utf16 = read("bedrock", "cjk-emoji-utf16.response");
    mixed["output"]["message"]["content"][1] = utf16["output"]["message"]["content"][1].clone();
    mixed["output"]["message"]["content"][0] = json!({"citationsContent": {"content": [{"text": "x"}], "citations": [mixed["output"]["message"]["content"][0]["citationsContent"]["citations"][0].clone(), mixed["output"]["message"]["content"][0]["citationsContent"]["citations"][0].clone()]}});
    let o = options(&read("bedrock", "cjk-emoji.sources"));
    let m = bedrock::from_bedrock_response(&read("bedrock", "cjk-emoji.request"), &mixed, &o).unwrap();
    assert_eq!(units(&m.bundle), ["code_point", "code_point", "unmatched"]);
    assert_eq!(m.issues.len(), 1);
    assert_eq!((m.issues[0].code, m.issues[0].unit.as_deref()), ("cited_text_not_found", Some("code_point")));
    let r = check(&m.bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert_eq!(r.assessment.issues.iter().map(|x| (x.citation_id.clone().unwrap(), x.code)).collect::<Vec<_>>(), [("cite-2".to_owned(), "range_out_of_bounds")], "its UTF-16 end is past the code-point end");
}

#[test]
fn bedrock_pages_and_chunks_are_quotes_located_within_them() {
    let i = import("bedrock", "two-docs", "two-docs");
    holds(&i);
    quotes_are_the_snapshots(&i);
    assert!(i.issues.is_empty(), "{:?}", i.issues);
    assert_eq!(units(&i.bundle), ["page", "chunk", "chunk"]);
    let ids: Vec<&str> = i.bundle.sources.iter().map(|s| s.spec.source_id.as_str()).collect();
    assert_eq!(ids, ["warranty", "stoves"]);
    // The same quote on another page is not found there.
    let mut moved = read("bedrock", "two-docs.response");
    moved["output"]["message"]["content"][0]["citationsContent"]["citations"][0]["location"]["documentPage"] = json!({"documentIndex": 0, "start": 3, "end": 3});
    let m = bedrock::from_bedrock_response(&read("bedrock", "two-docs.request"), &moved, &options(&read("bedrock", "two-docs.sources"))).unwrap();
    assert_eq!(issue_codes(&m), [("/output/message/content/0/citationsContent/citations/0", "cited_text_not_found")]);
    assert_eq!(check(&m.bundle).assessment.status.as_str(), "invalid");
}

#[test]
fn bedrock_tampered_citations_make_the_bundle_invalid() {
    let i = import("bedrock", "ascii", "tampered");
    let flagged: Vec<(&str, &str)> = i.issues.iter().filter_map(|x| Some((x.citation_id.as_deref()?, x.code))).collect();
    assert_eq!(flagged, [("cite-0", "cited_text_not_found"), ("cite-2", "cited_text_not_found")]);
    let r = check(&i.bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    let mut found: Vec<(String, &str)> = r.assessment.issues.iter().map(|x| (x.citation_id.clone().unwrap(), x.code)).collect();
    found.sort();
    // The moved range runs past the end of the snapshot.
    assert_eq!(found, [("cite-0".to_owned(), "quote_mismatch"), ("cite-2".to_owned(), "range_out_of_bounds")]);
}

#[test]
fn bedrock_without_source_content_lists_every_citation() {
    let i = import("bedrock", "ascii", "dropped");
    assert!(i.bundle.report.claims.is_empty());
    let codes: Vec<&str> = i.issues.iter().map(|x| x.code).collect();
    assert_eq!(codes, ["no_cited_text", "no_cited_text", "no_cited_text", "existence_only"]);
    assert!(i.issues[0].message.contains("sourceContent"), "{}", i.issues[0].message);
    assert_eq!(i.issues[0].claim.as_deref(), Some("The tent weighs 2.1 kg."));
}

// ---- OpenAI ------------------------------------------------------------------------

#[test]
fn openai_claims_are_answer_spans_and_results_are_located_in_the_snapshot() {
    let i = import("openai", "ascii", "ascii");
    holds(&i);
    quotes_are_the_snapshots(&i);
    let claims: Vec<&str> = i.bundle.report.claims.iter().map(|c| c.text.as_str()).collect();
    // `index` is an insertion point: each claim ends there.
    assert_eq!(claims, ["The tent weighs 2.1 kg.", "It sleeps two."]);
    // Both results of the file back each claim (the link is through file_id only).
    assert_eq!(i.bundle.report.claims[0].citations.len(), 2);
    assert_eq!(units(&i.bundle), ["quote", "quote", "quote", "quote"]);
    assert_eq!(issue_codes(&i), [("/output/1/content/0/annotations/2", "existence_only")]);
    assert_eq!(i.issues[0].claim.as_deref(), Some("See the review for more."));
}

#[test]
fn openai_file_citations_given_out_of_order_end_their_claims_in_index_order() {
    let request = read("openai", "ascii.request");
    let mut response = read("openai", "ascii.response");
    let annotations = response["output"][1]["content"][0]["annotations"].as_array_mut().unwrap();
    annotations.reverse();
    // A second citation at the first insertion point joins that claim.
    let again = annotations[2].clone();
    annotations.push(again);
    let i = openai::from_openai_response(&request, &response, &options(&read("openai", "ascii.sources"))).unwrap();
    let claims: Vec<(&str, usize)> = i.bundle.report.claims.iter().map(|c| (c.text.as_str(), c.citations.len())).collect();
    assert_eq!(claims, [("The tent weighs 2.1 kg.", 2), ("It sleeps two.", 2)]);
}

#[test]
fn openai_cjk_emoji_two_documents_and_a_tampered_result() {
    let c = import("openai", "cjk-emoji", "cjk-emoji");
    holds(&c);
    quotes_are_the_snapshots(&c);
    assert_eq!(c.bundle.report.claims[0].text, "帐篷重2.1公斤 🏕️。");
    let t = import("openai", "two-docs", "two-docs");
    holds(&t);
    assert_eq!(t.bundle.sources.len(), 2);
    assert_eq!(t.bundle.report.claims.iter().map(|c| c.citations[0].source_ref.source_id.as_str()).collect::<Vec<_>>(), ["warranty", "stoves"]);
    let x = import("openai", "ascii", "tampered");
    let flagged: Vec<&str> = x.issues.iter().filter(|i| i.citation_id.is_some()).map(|i| i.code).collect();
    assert_eq!(flagged, ["cited_text_not_found", "cited_text_not_found"], "the tampered result backs both claims");
    let r = check(&x.bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert!(r.assessment.issues.iter().all(|i| i.code == "quote_mismatch" && i.citation_id.is_some()));
    assert_eq!(r.assessment.issues.len(), 2);
}

#[test]
fn openai_without_result_text_says_so() {
    let i = import("openai", "ascii", "dropped");
    let request = read("openai", "dropped.request");
    let i2 = openai::from_openai_response(&request, &read("openai", "dropped.response"), &options(&read("openai", "ascii.sources"))).unwrap();
    assert!(i.bundle.report.claims.is_empty() && i2.bundle.report.claims.is_empty());
    assert_eq!(i2.issues.iter().map(|x| x.code).collect::<Vec<_>>(), ["existence_only", "no_cited_text", "no_cited_text"]);
    assert!(i2.issues[1].message.contains("did not include \"file_search_call.results\""), "{}", i2.issues[1].message);
    assert_eq!(i2.issues[1].claim.as_deref(), Some("The tent weighs 2.1 kg."));
}

// ---- Gemini ------------------------------------------------------------------------

#[test]
fn gemini_segments_per_part_and_chunks_located_quote_only() {
    let i = import("gemini", "ascii", "ascii");
    holds(&i);
    quotes_are_the_snapshots(&i);
    let claims: Vec<&str> = i.bundle.report.claims.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(claims, ["The tent weighs 2.1 kg.", "It sleeps two people."]);
    assert_eq!(issue_codes(&i), [("/candidates/0/groundingMetadata/groundingSupports/2/groundingChunkIndices/0", "existence_only")]);
    let t = import("gemini", "two-docs", "two-docs");
    holds(&t);
    assert_eq!(t.bundle.sources.len(), 2);
}

#[test]
fn gemini_bytes_on_cjk_emoji_land_on_the_providers_text_and_utf16_slicing_is_caught() {
    let response = read("gemini", "cjk-emoji.response");
    let i = import("gemini", "cjk-emoji", "cjk-emoji");
    holds(&i);
    quotes_are_the_snapshots(&i);
    let parts: Vec<&str> = response["candidates"][0]["content"]["parts"].as_array().unwrap().iter().map(|p| p["text"].as_str().unwrap()).collect();
    for (k, support) in response["candidates"][0]["groundingMetadata"]["groundingSupports"].as_array().unwrap().iter().enumerate() {
        let seg = &support["segment"];
        let part = parts[seg["partIndex"].as_u64().unwrap() as usize];
        let (s, e) = (seg["startIndex"].as_u64().unwrap() as usize, seg["endIndex"].as_u64().unwrap() as usize);
        // Bytes → the code-point range of the provider's text.
        let cs = part[..s].chars().count();
        let ce = part[..e].chars().count();
        let by_cp: String = part.chars().skip(cs).take(ce - cs).collect();
        assert_eq!(by_cp, seg["text"].as_str().unwrap());
        assert_eq!(i.bundle.report.claims[k].text, seg["text"].as_str().unwrap().trim());
        // The wrong way: the byte offsets taken as UTF-16 units select other text.
        let units: Vec<u16> = part.encode_utf16().collect();
        let wrong = String::from_utf16_lossy(&units[s.min(units.len())..e.min(units.len())]);
        assert_ne!(wrong, seg["text"].as_str().unwrap(), "support {k}");
    }
    // A response whose offsets were made that wrong way (UTF-16 units) is caught.
    let mut wrong = response.clone();
    for support in wrong["candidates"][0]["groundingMetadata"]["groundingSupports"].as_array_mut().unwrap() {
        let part = parts[support["segment"]["partIndex"].as_u64().unwrap() as usize];
        let text = support["segment"]["text"].as_str().unwrap().to_owned();
        let cs = part.find(&text).unwrap();
        let u = |b: usize| part[..b].encode_utf16().count();
        support["segment"]["startIndex"] = json!(u(cs));
        support["segment"]["endIndex"] = json!(u(cs + text.len()));
    }
    let w = gemini::from_gemini_response(&Value::Null, &wrong, &options(&read("gemini", "cjk-emoji.sources"))).unwrap();
    assert!(w.bundle.report.claims.is_empty(), "{:?}", w.bundle.report.claims);
    assert_eq!(w.issues.len(), 3);
    for x in &w.issues {
        assert!(matches!(x.code, "answer_offsets_mismatch" | "answer_offsets_out_of_range"), "{x:?}");
        assert_eq!(x.unit.as_deref(), Some("utf8"));
        assert!(x.part_index.is_some() && x.message.contains("part"), "{x:?}");
    }
}

#[test]
fn gemini_tampered_text_is_invalid_and_tampered_offsets_name_unit_and_part() {
    let i = import("gemini", "ascii", "tampered");
    assert_eq!(i.issues.iter().filter(|x| x.citation_id.is_some()).map(|x| x.code).collect::<Vec<_>>(), ["cited_text_not_found"]);
    let r = check(&i.bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert_eq!(r.assessment.issues.iter().map(|x| (x.citation_id.clone().unwrap(), x.code)).collect::<Vec<_>>(), [("cite-1".to_owned(), "quote_mismatch")]);
    let o = import("gemini", "ascii", "tampered-offsets");
    let x = &o.issues[0];
    assert_eq!((x.code, x.unit.as_deref(), x.part_index), ("answer_offsets_mismatch", Some("utf8"), Some(0)));
    assert!(x.message.contains("UTF-8 bytes [0, 20) of part 0"), "{}", x.message);
    assert_eq!(o.bundle.report.claims.len(), 1, "the mismatched support is not a claim");
}

#[test]
fn gemini_left_out_zero_offsets_read_as_zero_and_a_chunk_without_text_is_listed() {
    let i = import("gemini", "ascii", "dropped");
    holds(&i);
    assert_eq!(i.bundle.report.claims[0].text, "The tent weighs 2.1 kg.");
    assert_eq!(i.issues.iter().map(|x| x.code).collect::<Vec<_>>(), ["no_cited_text", "existence_only"]);
    assert_eq!(i.issues[0].claim.as_deref(), Some("It sleeps two people."));
}

// ---- one entry for all ---------------------------------------------------------------

#[test]
fn the_provider_is_detected_by_shape_and_an_unknown_shape_is_refused() {
    for p in ["bedrock", "openai", "gemini"] {
        assert_eq!(detect_provider(&read(p, "ascii.response")), Some(p));
    }
    let anthropic: Value = serde_json::from_str(&std::fs::read_to_string(format!("{}/tests/js/fixtures/anthropic/response.json", env!("CARGO_MANIFEST_DIR"))).unwrap()).unwrap();
    assert_eq!(detect_provider(&anthropic), Some("anthropic"));
    let o = options(&json!({}));
    let e = from_model_response(&json!({}), &json!({"choices": []}), None, &o).unwrap_err();
    assert_eq!(e.code(), "unknown_response_shape");
    let m = e.message(evidence_check::Lang::En);
    for p in ["anthropic", "bedrock", "openai", "gemini"] {
        assert!(m.contains(p), "{m}");
    }
    let e = from_model_response(&json!({}), &read("gemini", "ascii.response"), Some("cohere"), &o).unwrap_err();
    assert!(e.message(evidence_check::Lang::En).starts_with("Unknown provider \"cohere\""));
    // A provider named explicitly is used as given.
    let g = from_model_response(&json!({}), &read("gemini", "ascii.response"), Some("gemini"), &options(&read("gemini", "ascii.sources"))).unwrap();
    assert_eq!(g.provider, "gemini");
}

#[test]
fn a_citation_of_a_snapshot_the_host_did_not_supply_is_listed() {
    let o = options(&json!({}));
    let i = gemini::from_gemini_response(&Value::Null, &read("gemini", "ascii.response"), &o).unwrap();
    assert!(i.bundle.report.claims.is_empty());
    assert_eq!(i.issues.iter().map(|x| x.code).collect::<Vec<_>>(), ["source_not_supplied", "source_not_supplied", "existence_only"]);
}

#[test]
fn an_anthropic_response_is_checked_against_the_hosts_snapshot_when_given() {
    let dir = format!("{}/tests/js/fixtures/anthropic", env!("CARGO_MANIFEST_DIR"));
    let request: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/request.json")).unwrap()).unwrap();
    let response: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/response.json")).unwrap()).unwrap();
    let doc0 = request["messages"][0]["content"][0]["source"]["data"].as_str().unwrap().to_owned();
    // The host holds the same text: every citation holds, under the host's source id.
    let same = from_model_response(&request, &response, None, &options(&json!({"0": {"sourceId": "nature", "text": doc0}}))).unwrap();
    assert_eq!(same.bundle.sources[0].spec.source_id, "nature");
    holds(&same);
    // The host's copy changed since: the citations of that document are invalid.
    let changed = from_model_response(&request, &response, None, &options(&json!({"0": {"sourceId": "nature", "text": doc0.replace("green", "GREEN")}}))).unwrap();
    let r = check(&changed.bundle);
    assert_eq!(r.assessment.status.as_str(), "invalid");
    assert!(r.assessment.issues.iter().all(|i| i.code == "quote_mismatch"), "{:?}", r.assessment.issues);
}

// ---- thin adapters: Vercel AI SDK, LangChain ------------------------------------------

#[test]
fn vercel_sources_with_cited_text_are_located_and_google_metadata_is_read_as_gemini() {
    use evidence_check::import::adapters::from_vercel_result;
    let a = from_vercel_result(&read("vercel", "anthropic.response"), &options(&read("vercel", "anthropic.sources"))).unwrap();
    assert_eq!(a.provider, "vercel");
    holds(&a);
    quotes_are_the_snapshots(&a);
    assert_eq!(a.bundle.report.claims[0].citations.len(), 2);
    assert_eq!(a.issues.iter().map(|x| (x.path.as_str(), x.code)).collect::<Vec<_>>(), [("/sources/2", "existence_only")]);
    let g = from_vercel_result(&read("vercel", "google.response"), &options(&read("vercel", "google.sources"))).unwrap();
    holds(&g);
    assert_eq!(g.bundle.report.claims.len(), 2);
    assert!(g.bundle.import_notes.iter().all(|n| n.importer == "vercel"));
}

#[test]
fn langchain_citations_are_located_quote_only_and_google_translations_are_existence_only() {
    use evidence_check::import::adapters::from_langchain_message;
    let o = options(&read("langchain", "anthropic.sources"));
    let a = from_langchain_message(&read("langchain", "anthropic.response"), &o).unwrap();
    holds(&a);
    quotes_are_the_snapshots(&a);
    assert_eq!(a.issues.iter().map(|x| x.code).collect::<Vec<_>>(), ["existence_only"]);
    let t = from_langchain_message(&read("langchain", "tampered.response"), &o).unwrap();
    assert_eq!(t.issues[0].code, "cited_text_not_found");
    assert_eq!(check(&t.bundle).assessment.status.as_str(), "invalid");
    let g = from_langchain_message(&read("langchain", "google.response"), &o).unwrap();
    assert!(g.bundle.report.claims.is_empty());
    assert!(g.issues[0].code == "existence_only" && g.issues[0].message.contains("answer's text"), "{:?}", g.issues);
}
