//! The frozen document catalogue: import once, refuse a changed body, save to JSON and
//! load back only with every digest verified.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::catalog::{CatalogError, DocumentCatalog, Imported};
use evidence_check::digest::sha256_hex;
use evidence_check::codes::message_for_code;
use evidence_check::catalog::CatalogErrorKind;
use evidence_check::error::Lang;
use evidence_check::excerpt::{extract_excerpts, Document, ExcerptReason};
use serde_json::json;
use std::path::Path;

fn doc(id: &str) -> Document {
    let body = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/tasks/docs/{id}.md"))).unwrap();
    Document { id: id.into(), title: format!("{id} card"), body }
}

#[test]
fn an_import_freezes_the_digest_and_the_same_body_again_is_a_no_op() {
    let mut c = DocumentCatalog::new();
    let camera = doc("camera");
    let sha = sha256_hex(&camera.body);
    let first = c.import(camera.clone()).unwrap();
    assert_eq!(first, Imported { item_id: "camera".into(), sha256: sha.clone(), lines: 5 });
    // Same body (even under another title): nothing changes.
    let again = c.import(Document { title: "renamed".into(), ..camera.clone() }).unwrap();
    assert_eq!(again, first);
    assert_eq!(c.get("camera").unwrap().title, "camera card", "the first import stays");
    c.import(doc("tripod")).unwrap();
    assert_eq!(c.ids(), ["camera", "tripod"]);
    assert_eq!(c.sha256("camera"), Some(sha.as_str()));
    assert!(c.get("drone").is_none());
}

#[test]
fn a_changed_body_under_the_same_id_is_refused_and_nothing_is_replaced() {
    let mut c = DocumentCatalog::new();
    let camera = doc("camera");
    let frozen = sha256_hex(&camera.body);
    c.import(camera.clone()).unwrap();
    let edited = Document { body: camera.body.replace('\n', "\r\n"), ..camera.clone() };
    let given = sha256_hex(&edited.body);
    let e = c.import(edited).unwrap_err();
    assert_eq!(e, CatalogError::Digest { kind: CatalogErrorKind::DocumentChanged, item_id: "camera".into(), expected: frozen.clone(), actual: given.clone() });
    assert_eq!(e.code(), "document_changed");
    let en = e.message_in(Lang::En);
    assert!(en.contains("'camera'") && en.contains(&frozen) && en.contains(&given), "{en}");
    let zh = e.message_in(Lang::Zh);
    assert!(zh.contains("拒绝导入") && zh.contains(&frozen) && zh.contains(&given), "{zh}");
    assert_eq!(c.get("camera").unwrap().body, camera.body, "the frozen version stays");
    // Old citations still check out against the frozen version.
    let claims = extract_excerpts(&camera);
    assert!(claims.iter().all(|claim| c.library().check(claim).supported));
}

#[test]
fn the_catalogue_round_trips_through_json_with_every_digest_verified() {
    let mut c = DocumentCatalog::new();
    for id in ["tripod", "camera", "drone"] {
        c.import(doc(id)).unwrap();
    }
    let saved = serde_json::to_value(c.to_json()).unwrap();
    assert_eq!(saved["documents"][0]["id"], "camera");
    assert_eq!(saved["documents"][0]["sha256"], json!(sha256_hex(&doc("camera").body)));
    let loaded = DocumentCatalog::from_value(&saved).unwrap();
    assert_eq!(loaded, c);
    assert_eq!(serde_json::to_value(loaded.to_json()).unwrap(), saved);

    // A body edited in the saved JSON: refused, naming the id and both digests.
    let mut tampered = saved.clone();
    tampered["documents"][1]["body"] = json!("# Drone\n- Item name: 100 drones in stock.\n");
    let e = DocumentCatalog::from_value(&tampered).unwrap_err();
    let actual = sha256_hex("# Drone\n- Item name: 100 drones in stock.\n");
    assert_eq!(
        e,
        CatalogError::Digest { kind: CatalogErrorKind::DigestMismatch, item_id: "drone".into(), expected: saved["documents"][1]["sha256"].as_str().unwrap().into(), actual }
    );
    assert_eq!(e.code(), "catalog_digest_mismatch");
    // A recorded digest edited: refused too.
    let mut tampered = saved.clone();
    tampered["documents"][2]["sha256"] = json!("0".repeat(64));
    assert!(matches!(DocumentCatalog::from_value(&tampered), Err(CatalogError::Digest { item_id, .. }) if item_id == "tripod"));
    // Shape and duplicate ids are contract errors with paths.
    let mut dup = saved.clone();
    dup["documents"][2] = saved["documents"][0].clone();
    let CatalogError::Contract(e) = DocumentCatalog::from_value(&dup).unwrap_err() else { panic!() };
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("/documents/2/id", "duplicate_document_id"));
    let CatalogError::Contract(e) = DocumentCatalog::from_value(&json!({"documents": [{"id": "a", "title": "t", "body": "b"}]})).unwrap_err() else { panic!() };
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("/documents/0/sha256", "missing"));
}

#[test]
fn a_catalogue_checks_excerpts_like_a_document_list() {
    let mut c = DocumentCatalog::new();
    let camera = doc("camera");
    c.import(camera.clone()).unwrap();
    let mut claim = extract_excerpts(&camera).remove(0);
    assert!(c.library().check(&claim).supported);
    claim.sha256 = "f".repeat(64);
    assert_eq!(c.library().check(&claim).reason, Some(ExcerptReason::StaleDigest));
    assert!(matches!(c.require("drone"), Err(CatalogError::Unknown { item_id }) if item_id == "drone"));
}

#[test]
fn catalogue_codes_have_chinese_and_english_texts() {
    for k in CatalogErrorKind::ALL {
        let (zh, en) = (message_for_code(k.code(), Lang::Zh).unwrap(), message_for_code(k.code(), Lang::En).unwrap());
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}: {zh}", k.code());
        assert!(en.is_ascii() && en.ends_with('.'), "{}: {en}", k.code());
    }
    assert_eq!(CatalogErrorKind::ALL.len(), 3);
}
