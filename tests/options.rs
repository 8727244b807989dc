//! What the JS binding used to do itself and the core now does (issue 13 §1–§3): call
//! options read in one step, the JSON scans, the dialect reader, review recording and
//! signing, the one list parser, and the one error path (`Coded`, explicit language).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::citation::Unit;
use evidence_check::clock::Clock;
use evidence_check::contract::{list_from_value, specs_from_value, Limits};
use evidence_check::error::{BindingError, BindingErrorKind, Coded, ContractError, Lang};
use evidence_check::review::ReviewErrorKind;
use evidence_check::store::locate::Whitespace;
use evidence_check::options::{self, CallOptions};
use evidence_check::render::Escaping;
use evidence_check::schema::Dialect;
use evidence_check::{Contract, Report, Scope};
use serde_json::{json, Value};

const NOW: &str = "2026-11-29T00:00:00+00:00";

fn read<T: options::Options>(v: Value) -> Result<CallOptions, BindingError> {
    options::from_value::<T>(v, "options")
}

#[test]
fn options_are_read_in_one_step_and_resolved() {
    let o = read::<options::CheckBundleOptions>(json!({"now": NOW, "render": false, "maxClaims": 20, "maxInputBytes": 99, "compat": "reference", "reviewKey": "k", "lang": "en"})).unwrap();
    let b = o.bundle().unwrap();
    assert!(!b.render);
    // compat "reference": the reference policy, its messages and escaping; an explicit `lang` beside it wins.
    assert_eq!(b.policy, Limits { max_claims: 20, max_input_bytes: 99, reference_messages: true, ..Limits::reference() });
    assert_eq!(b.escaping, Escaping::Reference);
    assert_eq!(b.review_key.as_deref(), Some(&b"k"[..]));
    assert_eq!(b.lang, Lang::En);
    assert_eq!(b.clock.now(), NOW);
    // compat alone: Chinese too; an explicit policy beside it wins (with the reference's messages).
    let c = read::<options::CheckBundleOptions>(json!({"compat": "reference"})).unwrap();
    assert_eq!((c.bundle().unwrap().lang, c.bundle().unwrap().policy), (Lang::Zh, Limits::reference().with_reference_messages(true)));
    let c = read::<options::CheckBundleOptions>(json!({"compat": "reference", "policy": "documents"})).unwrap();
    assert_eq!(c.limits().unwrap(), Limits::documents().with_reference_messages(true));
    // Nothing given: every default (the documents policy, the host's language: natively
    // none is installed, English), the language of an object that carries one.
    let d = read::<options::CheckBundleOptions>(json!({})).unwrap();
    assert_eq!(d.limits().unwrap(), Limits::default());
    assert_eq!(Limits::default(), Limits::documents());
    assert_eq!((d.lang(), d.bundle().unwrap().lang), (Lang::En, Lang::En));
    // The carried policy, unless one is given.
    let carried = Limits::reference();
    assert_eq!(d.limits_or(&carried).unwrap(), carried);
    assert_eq!(read::<options::CheckBundleOptions>(json!({"policy": "documents"})).unwrap().limits_or(&carried).unwrap(), Limits::documents());
    // A policy preset, then the `max*` overrides.
    let p = read::<options::CheckBundleOptions>(json!({"policy": "documents", "maxClaims": 7})).unwrap().limits().unwrap();
    assert_eq!(p.max_claims, 7);
    assert_eq!(p.max_source_bytes, evidence_check::policy::Policy::from_value(&json!("documents")).unwrap().max_source_bytes);
    let e = read::<options::CheckBundleOptions>(json!({"policy": {"nope": 1}})).unwrap().bundle().unwrap_err();
    assert_eq!(e.code(), "policy_unknown_field");
    assert_eq!(e.details(), vec![("field", json!("nope"))]);
    assert_eq!(d.escaping(), Escaping::Hardened);
    assert_eq!(d.lang_or(Lang::En), Lang::En);
    assert_eq!(d.lang_or(Lang::Zh), Lang::Zh);
    assert_eq!(options::read::<options::CheckBundleOptions>(None, "options").unwrap(), CallOptions::default());
    let q = read::<options::QuoteOptions>(json!({"prefix": "p", "occurrence": 2, "whitespace": "loose"})).unwrap();
    let (sel, lo) = q.selector("x".into()).unwrap();
    assert_eq!((sel.prefix.as_deref(), sel.occurrence, lo.whitespace), (Some("p"), Some(2), Whitespace::Loose));
    assert_eq!(read::<options::RangeOptions>(json!({"unit": "utf8"})).unwrap().unit(Unit::Utf16), Unit::Utf8);
    assert_eq!(read::<options::ParseOptions>(json!({"dialect": "openai-strict"})).unwrap().dialect(), Dialect::OpenAiStrict);
}

#[test]
fn an_unknown_option_is_refused_with_the_allowed_names() {
    let e = read::<options::StoreOptions>(json!({"now": NOW, "langue": "en"})).unwrap_err();
    assert_eq!(e.kind, BindingErrorKind::InvalidArgument);
    assert!(e.message(Lang::Zh).starts_with("options.langue:未知字段 `langue`,应为`now`、"), "{}", e.message(Lang::Zh));
    let m = e.message(Lang::En);
    assert!(m.starts_with("options.langue: unknown field `langue`, expected one of "), "{m}");
    for name in ["now", "maxSources", "maxSourceBytes", "lang"] {
        assert!(m.contains(&format!("`{name}`")), "{m}");
    }
    // Each call allows its own names only.
    assert!(read::<options::AssessOptions>(json!({"now": NOW})).is_err());
    assert!(read::<options::RenderOptions>(json!({"now": NOW})).is_ok());
}

#[test]
fn a_wrong_value_names_the_option() {
    for (v, name) in [
        (json!({"maxClaims": -1}), "options.maxClaims"),
        (json!({"maxClaims": 1.5}), "options.maxClaims"),
        (json!({"maxClaims": null}), "options.maxClaims"),
        (json!({"render": "yes"}), "options.render"),
        (json!({"lang": "fr"}), "options.lang"),
        (json!({"compat": "legacy"}), "options.compat"),
    ] {
        let e = read::<options::CheckBundleOptions>(v.clone()).unwrap_err();
        assert!(e.message(Lang::En).starts_with(&format!("{name}: ")), "{v}: {}", e.message(Lang::En));
    }
    assert!(options::from_value::<options::StoreOptions>(json!([]), "options").unwrap_err().message(Lang::En).contains("must be an object"));
    let e = read::<options::CheckBundleOptions>(json!({"reviewKey": ""})).unwrap().bundle().unwrap_err();
    assert_eq!((e.code(), e.message(Lang::En).as_str()), ("invalid_argument", "options.reviewKey must not be empty"));
    assert_eq!(read::<options::ReviewOptions>(json!({"key": ""})).unwrap().signing_key().unwrap_err().message(Lang::En), "options.key must not be empty");
    let e = read::<options::CheckBundleOptions>(json!({"now": "yesterday"})).unwrap().bundle().unwrap_err();
    assert_eq!(e.code(), "invalid_now");
    assert!(e.message(Lang::En).starts_with("now must be an ISO 8601"));
    assert_eq!(read::<options::QuoteOptions>(json!({"occurrence": 0})).unwrap().selector("x".into()).unwrap_err().message(Lang::En), "options.occurrence counts from 1");
    let e = read::<options::AnthropicOptions>(json!({})).unwrap().anthropic().unwrap_err();
    assert_eq!(e.message(Lang::En), "options.scope is required");
    let e = read::<options::AnthropicOptions>(json!({"scope": {"tenant_id": "t"}})).unwrap().anthropic().unwrap_err();
    assert_eq!(e.code(), "contract");
    assert!(e.issues(Lang::En).is_some());
}

#[test]
fn the_lone_surrogate_scan_finds_unescaped_surrogate_escapes_only() {
    assert_eq!(options::lone_surrogate_escape(r#""a\ud800""#), Some(2));
    assert_eq!(options::lone_surrogate_escape(r#""a\uDFFF""#), Some(2));
    assert_eq!(options::lone_surrogate_escape(r#""a\\ud800""#), None, "an escaped backslash, then text");
    assert_eq!(options::lone_surrogate_escape(r#""a\\\ud800""#), Some(4));
    assert_eq!(options::lone_surrogate_escape(r#""\u00e9 \u2028""#), None);
    let e = options::check_stringified(r#"{"x":"\udc00"}"#, "report").unwrap_err();
    assert_eq!(e.code(), "invalid_unicode");
    assert!(e.message(Lang::En).starts_with("report contains a string with an unpaired surrogate (at character 6"));
    assert!(e.message(Lang::Zh).starts_with("report 含有一个带未配对代理项的字符串(在其 JSON 的第 6 个字符处)"));
    assert!(options::check_stringified(r#"{"x":"é"}"#, "report").is_ok());
    let e = options::check_input_size("bundle", 11, 10).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "input_too_large");
    assert!(options::check_input_size("bundle", 10, 10).is_ok());
}

fn report_value() -> Value {
    json!({"title": "T", "claims": [{"claim_id": "c1", "text": "x", "kind": "fact", "rationale": null, "citations": []}], "conflicts": null, "gaps": null})
}

#[test]
fn the_openai_strict_dialect_reads_null_as_absent() {
    let text = report_value().to_string();
    let r = Report::from_json_in(&text, Dialect::OpenAiStrict, &Limits::default()).unwrap();
    assert_eq!(r.claims.len(), 1);
    let e = Report::from_json_in(&text, Dialect::Standard, &Limits::default()).unwrap_err();
    assert!(e.violations.iter().any(|v| v.path == "/conflicts"), "{e:?}");
    assert!(Report::from_json_in("{", Dialect::OpenAiStrict, &Limits::default()).is_err());
}

/// A scope, a valid one-claim report (`c1`) and a fixed clock, for recording reviews.
fn review_context() -> (Scope, Report, Clock) {
    let mut v = report_value();
    v["conflicts"] = json!([]);
    v["gaps"] = json!([]);
    v["claims"][0]["rationale"] = json!("");
    (Scope { tenant_id: "t".into(), user_id: "u".into() }, Report::from_value(&v).unwrap(), Clock::fixed(NOW).unwrap())
}

#[test]
fn reviews_are_recorded_and_signed_in_the_core() {
    let (scope, report, clock) = review_context();
    let s = |x: &str| Value::String(x.into());
    let p = evidence_check::policy::Policy::default();
    let r = evidence_check::review::record_review_signed(&scope, &report, &s("c1"), &s("supported"), &s("ok"), &clock, None, &p, Some(b"key")).unwrap();
    assert!(evidence_check::review::verify_review(&r, b"key").is_ok());
    assert!(evidence_check::review::verify_review(&r, b"other").is_err());
    let unsigned = evidence_check::review::record_review_signed(&scope, &report, &s("c1"), &s("supported"), &s("ok"), &clock, None, &p, None).unwrap();
    assert_eq!(unsigned.signature, None);
    assert_eq!(
        evidence_check::review::record_review_signed(&scope, &report, &Value::Null, &s("supported"), &s("ok"), &clock, None, &p, None),
        Err(evidence_check::review::ReviewRefusal { kind: ReviewErrorKind::UnknownClaim, detail: None })
    );
    // A refusal names the claim, in the language asked.
    let e = evidence_check::review::record_review_signed(&scope, &report, &s("c9"), &s("supported"), &s("ok"), &clock, None, &p, None).unwrap_err();
    assert_eq!(e.code(), "unknown_claim");
    assert!(e.message(Lang::En).contains("claim c9"), "{}", e.message(Lang::En));
    assert_eq!(e.details()[0].0, "detail");
    let list = evidence_check::review::reviews_from_value(&json!([serde_json::to_value(&r).unwrap()])).unwrap();
    assert_eq!(list, vec![r]);
    assert_eq!(evidence_check::review::reviews_from_value(&Value::Null).unwrap(), vec![]);
    let e = evidence_check::review::reviews_from_value(&json!([{}])).unwrap_err();
    assert_eq!(e.subject, "reviews");
    assert!(e.violations.iter().all(|v| v.path.starts_with("/0")));
}

#[test]
fn one_list_parser_checks_items_then_the_whole() {
    let specs = specs_from_value(&json!([{"source_id": "a", "title": "T", "locator": "fixture:x", "filename": "a.md", "kind": "fixture"}])).unwrap();
    assert_eq!(specs.len(), 1);
    let e = specs_from_value(&json!([1, {}])).unwrap_err();
    assert_eq!(e.subject, "specs");
    assert!(e.violations.iter().any(|v| v.path == "/0") && e.violations.iter().any(|v| v.path.starts_with("/1")));
    assert_eq!(specs_from_value(&json!({})).unwrap_err().violations[0].code.code(), "wrong_type");
    // The whole-list rule runs only over valid items.
    let mut ran = 0;
    let r = list_from_value(&json!([{"tenant_id": "t", "user_id": "u"}]), "scopes", Scope::check, |_, items| ran = items.len());
    assert!(r.is_ok());
    assert_eq!(ran, 1);
    let docs = json!([{"id": "d", "title": "t", "body": "b"}, {"id": "d", "title": "t", "body": "c"}]);
    let e = evidence_check::excerpt::documents_from_value(&docs).unwrap_err();
    assert_eq!((e.subject, e.violations[0].path.as_str(), e.violations[0].code.code()), ("documents", "/1/id", "duplicate_document_id"));
}

#[test]
fn every_error_is_coded_and_localised_explicitly() {
    let dup = json!({"title": "T", "claims": [
        {"claim_id": "c1", "text": "x", "kind": "fact"}, {"claim_id": "c1", "text": "y", "kind": "fact"}]});
    let e: ContractError = Report::from_value(&dup).unwrap_err();
    let (subject, issues) = e.issues(Lang::En).unwrap();
    assert_eq!((subject, issues[0].message.as_str()), ("report", "Two claims share one claim id."));
    assert_eq!(e.issues(Lang::Zh).unwrap().1[0].message, "论断标识重复。");
    assert!(Coded::message(&e, Lang::En).contains("Two claims share one claim id."));
    // A catalogue refusal names the document and both digests, in the language asked.
    let mut c = evidence_check::catalog::DocumentCatalog::with_documents(vec![]).unwrap();
    let doc = |body: &str| evidence_check::excerpt::Document { id: "d".into(), title: "t".into(), body: body.into() };
    c.import(doc("a")).unwrap();
    let e = c.import(doc("b")).unwrap_err();
    assert_eq!(e.code(), "document_changed");
    assert!(Coded::message(&e, Lang::En).starts_with("The document's body changed"));
    assert!(Coded::message(&e, Lang::Zh).starts_with("同一资料标识"));
    let keys: Vec<&str> = e.details().iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ["item_id", "expected_sha256", "actual_sha256"]);
    assert!(e.issues(Lang::En).is_none());
    assert!(evidence_check::catalog::DocumentCatalog::with_documents(vec![doc("a"), doc("b")]).is_err());
    // Kinds and binding errors.
    assert_eq!(Coded::message(&evidence_check::citation::OffsetErrorKind::OutOfRange, Lang::En), "The offset is past the end of the text.");
    assert_eq!(Coded::message(&BindingError::from(BindingErrorKind::StoreFreed), Lang::En), "The evidence store was freed; it cannot be used any more.");
    assert_eq!(Coded::message(&BindingError::argument("x must be a string"), Lang::En), "x must be a string");
    assert_eq!(Coded::message(&BindingError::argument("x must be a string"), Lang::Zh), "x 必须是字符串");
    // A detail of no template stays as given.
    assert_eq!(Coded::message(&BindingError::argument("x is odd"), Lang::Zh), "x is odd");
}

#[test]
fn the_code_unions_of_the_types_are_made_from_the_kinds() {
    use evidence_check::codes::{EVIDENCE_CODE_TS, ISSUE_CODE_TS};
use evidence_check::store::StoreErrorKind;
use evidence_check::error::ViolationCode;
use evidence_check::catalog::CatalogErrorKind;
    assert!(EVIDENCE_CODE_TS.starts_with("/** "), "{EVIDENCE_CODE_TS}");
    assert!(EVIDENCE_CODE_TS.ends_with("\";"), "{EVIDENCE_CODE_TS}");
    for k in StoreErrorKind::ALL {
        assert!(EVIDENCE_CODE_TS.contains(&format!("\"{}\"", k.code())));
    }
    assert!(EVIDENCE_CODE_TS.contains(&format!(" | \"{}\" | ", CatalogErrorKind::ALL.last().unwrap().code())));
    // The policy's refusals are listed too, each as its code() gives it.
    use evidence_check::policy::PolicyError;
    for e in [PolicyError::UnknownField("x".into()), PolicyError::UnknownPreset("x".into()), PolicyError::Invalid { field: "x".into(), message: "m".into() }] {
        assert!(PolicyError::CODES.contains(&e.code()), "{}", e.code());
        assert!(EVIDENCE_CODE_TS.contains(&format!("\"{}\"", e.code())));
    }
    assert!(EVIDENCE_CODE_TS.contains("export type EvidenceCode = \"catalogue_invalid\" | \"store_closed\" | "));
    assert_eq!(ISSUE_CODE_TS.matches(" | ").count() + 1, ViolationCode::ALL.len());
    assert!(ISSUE_CODE_TS.contains("export type IssueCode = \"invalid_json\" | \"input_too_large\""));
}

#[test]
fn a_refused_note_gives_its_length_in_code_points_or_the_hosts_length() {
    let (scope, report, clock) = review_context();
    let p = evidence_check::policy::Policy::reference();
    let record = |note: &Value, host: Option<usize>| {
        evidence_check::review::record_review_signed(&scope, &report, &json!("c1"), &json!("supported"), note, &clock, host, &p, None).unwrap_err()
    };
    // A copied note counts its code points, whatever the host's UTF-16 length says.
    let e = record(&Value::String("😀".repeat(1001)), Some(2002));
    assert_eq!(e.kind, ReviewErrorKind::InvalidNote);
    let d = e.detail.as_deref().unwrap();
    assert_eq!((d.size, d.limit, d.policy_field), (Some(1001), Some(1000), Some("max_note_chars")));
    // A note the host did not copy (too long to be valid) is measured by the host.
    let e = record(&Value::Null, Some(5000));
    assert_eq!(e.detail.as_deref().and_then(|d| d.size), Some(5000));
    // No length known, or within the limit: no numbers.
    assert_eq!(record(&Value::Null, None).detail, None);
}

#[test]
fn the_catalog_option_holds_only_catalog() {
    assert!(evidence_check::options::catalog_option_keys::<&str>(&[]).is_ok());
    assert!(evidence_check::options::catalog_option_keys(&["catalog"]).is_ok());
    let e = evidence_check::options::catalog_option_keys(&["catalog", "catalogue"]).unwrap_err();
    assert_eq!(e.code(), "invalid_argument");
    assert!(e.message(Lang::En).contains("unknown field `catalogue`, expected `catalog`"), "{}", e.message(Lang::En));
}

#[test]
fn how_to_raise_a_limit_follows_the_errors_language() {
    let claims: Vec<Value> = (0..13).map(|i| json!({"claim_id": format!("c{i}"), "text": "x", "kind": "fact"})).collect();
    let v = json!({"title": "T", "claims": claims});
    let e = Report::from_value_with(&v, &Limits::reference()).unwrap_err();
    let hint = |lang| evidence_check::policy::how_to_raise("max_claims", lang);
    let message = |lang| e.issues(lang).unwrap().1.into_iter().find(|i| i.path == "/claims").unwrap().message;
    assert_eq!(message(Lang::En), format!("List should have at most 12 items, not 13; {}", hint(Lang::En)));
    // In Chinese, the rule's text too.
    assert_eq!(message(Lang::Zh), format!("列表至多 12 项,实有 13 项;{}", hint(Lang::Zh)));
    assert!(Coded::message(&e, Lang::Zh).contains(&hint(Lang::Zh)), "{}", Coded::message(&e, Lang::Zh));
    // The input-size limit too.
    let limits = Limits { max_input_bytes: 10, ..Limits::reference() };
    let e = Report::from_json_with(&v.to_string(), &limits).unwrap_err();
    assert!(e.issues(Lang::Zh).unwrap().1[0].message.ends_with(&evidence_check::policy::how_to_raise("max_input_bytes", Lang::Zh)));
    // Under compat "reference" the hint says to drop compat, in the language.
    let reference = Limits { reference_messages: true, ..Limits::reference() };
    let e = Report::from_value_with(&v, &reference).unwrap_err();
    let compat = |lang| evidence_check::error::Hint::RaiseCompat("max_claims").text(lang);
    assert_eq!(message_of(&e, Lang::En), format!("List should have at most 12 items, not 13; {}", compat(Lang::En)));
    assert_eq!(message_of(&e, Lang::Zh), format!("列表至多 12 项,实有 13 项;{}", compat(Lang::Zh)));
    // Under a policy the documents preset does not raise: a policy file.
    let claims: Vec<Value> = (0..2001).map(|i| json!({"claim_id": format!("c{i}"), "text": "x", "kind": "fact"})).collect();
    let e = Report::from_value_with(&json!({"title": "T", "claims": claims}), &Limits::documents()).unwrap_err();
    assert!(message_of(&e, Lang::En).ends_with("; raise it with the policy field max_claims (CLI: --policy with a policy file that sets \"max_claims\")"), "{}", message_of(&e, Lang::En));
}

/// The message of the violation at `/claims`.
fn message_of(e: &ContractError, lang: Lang) -> String {
    e.issues(lang).unwrap().1.into_iter().find(|i| i.path == "/claims").unwrap().message
}

#[test]
fn host_exceptions_and_status_arguments_are_judged_in_the_core() {
    use evidence_check::json::is_out_of_stack;
    assert!(is_out_of_stack(Some("RangeError"), Some("Maximum call stack size exceeded")));
    assert!(is_out_of_stack(Some("InternalError"), Some("too much recursion")));
    assert!(!is_out_of_stack(Some("RangeError"), Some("Invalid string length")));
    assert!(!is_out_of_stack(Some("Error"), Some("Maximum call stack size exceeded")));
    assert!(!is_out_of_stack(None, None));
    use evidence_check::excerpt::AnswerStatus;
    assert_eq!(AnswerStatus::from_arg("info").unwrap(), AnswerStatus::Info);
    let e = AnswerStatus::from_arg("nope").unwrap_err();
    assert_eq!((e.code(), e.message(Lang::En).as_str()), ("invalid_argument", "status must be one of info, reserved, insufficient, not_found, denied, abstain, unconfirmed"));
}

/// A call that reads a report without a store takes a handle's language and policy unless
/// its options give others; a freed handle keeps its language; a plain report, the options'.
#[test]
fn a_report_handle_carries_its_language_and_policy() {
    let carried = Limits { max_note_chars: 7, ..Limits::reference() };
    let none = read::<options::ReviewOptions>(json!({})).unwrap();
    let (lang, policy) = none.report_setting(Some((Lang::Zh, Some(&carried))));
    assert_eq!((lang, policy.unwrap()), (Lang::Zh, carried.clone()));
    let (lang, policy) = none.report_setting(Some((Lang::Zh, None)));
    assert_eq!((lang, policy.unwrap()), (Lang::Zh, none.limits().unwrap()));
    let (lang, policy) = none.report_setting(None);
    assert_eq!((lang, policy.unwrap()), (none.lang(), none.limits().unwrap()));

    let given = read::<options::ReviewOptions>(json!({"lang": "en", "policy": "documents"})).unwrap();
    let (lang, policy) = given.report_setting(Some((Lang::Zh, Some(&carried))));
    assert_eq!((lang, policy.unwrap()), (Lang::En, Limits::documents()));
    let bad = read::<options::ReviewOptions>(json!({"policy": "nonesuch"})).unwrap();
    assert!(bad.report_setting(Some((Lang::Zh, Some(&carried)))).1.is_err());
}

#[test]
fn locate_bundle_checks_unrendered_hardened_and_unsigned() {
    // Whatever the options say of rendering, escaping and the review key, a located
    // draft is checked unrendered, hardened and unsigned; the rest is `bundle()`'s.
    let o = read::<options::LocateBundleOptions>(json!({"now": NOW, "compat": "reference", "maxClaims": 7, "lang": "en"})).unwrap();
    let b = o.locate_bundle().unwrap();
    assert!(!b.render);
    assert_eq!(b.escaping, Escaping::Hardened);
    assert_eq!(b.review_key, None);
    assert_eq!((b.lang, b.clock.now()), (Lang::En, NOW.to_owned()));
    assert_eq!(b.policy, o.bundle().unwrap().policy);
    assert_eq!(b.policy.max_claims, 7);
    // A bad clock is still refused, as `bundle()` refuses it.
    let bad = read::<options::LocateBundleOptions>(json!({"now": "yesterday"})).unwrap();
    assert!(bad.locate_bundle().is_err());
}

#[test]
fn assess_and_render_throw_a_foreign_review_unless_told_to_report_it() {
    use evidence_check::assess::ReviewMode;
    let (key, mode) = read::<options::AssessOptions>(json!({})).unwrap().review_check().unwrap();
    assert_eq!((key, mode), (None, ReviewMode::Throw));
    let (key, mode) = read::<options::RenderOptions>(json!({"reviews": "report", "reviewKey": "k"})).unwrap().review_check().unwrap();
    assert_eq!((key.as_deref(), mode), (Some(&b"k"[..]), ReviewMode::Report));
    let e = read::<options::AssessOptions>(json!({"reviewKey": ""})).unwrap().review_check().unwrap_err();
    assert_eq!(e.code(), "invalid_argument");
}

#[test]
fn a_whole_number_argument_is_an_integer_a_double_holds_exactly() {
    let ok = |n: f64| options::whole_number(Some(n), "offset");
    assert_eq!(ok(0.0).unwrap(), 0);
    assert_eq!(ok(-0.0).unwrap(), 0);
    assert_eq!(ok(42.0).unwrap(), 42);
    assert_eq!(ok(9_007_199_254_740_991.0).unwrap(), 9_007_199_254_740_991);
    for bad in [9_007_199_254_740_992.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
        let e = ok(bad).unwrap_err();
        assert_eq!(e.code(), "invalid_argument", "{bad}");
        assert!(e.message(Lang::En).contains("offset must be a whole number from 0 to 2^53 - 1"), "{bad}");
    }
    assert!(options::whole_number(None, "start").unwrap_err().message(Lang::En).starts_with("start must be"));
}
