//! A frozen document catalogue (the second design article's `documents` table): each
//! document is imported once and its digest frozen; importing the same body again is a
//! no-op, a different body under the same id is refused and nothing is replaced.
//!
//! The catalogue saves to JSON and loads back only when every recorded digest is the
//! digest of its body, so a saved catalogue cannot be edited in place and still vouch
//! for old citations.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

use crate::json::{join, Node};
use crate::rules::sized;
use crate::contract::Checker;
use crate::contract::Contract;
use crate::error::{ContractError, Lang, ViolationCode};
use crate::excerpt::{splitlines, Document, Library};

/// What an import recorded: the frozen digest and the number of lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Imported {
    pub item_id: String,
    pub sha256: String,
    pub lines: usize,
}

/// One catalogued document as saved: the document and its frozen digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CatalogEntry {
    pub id: String,
    pub title: String,
    pub body: String,
    pub sha256: String,
}

/// The saved form of a catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CatalogJson {
    pub documents: Vec<CatalogEntry>,
}

/// Why the catalogue refused a document or a saved catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    /// `document_changed` or `catalog_digest_mismatch`: `expected` is the frozen or
    /// recorded digest, `actual` the digest of the body given.
    Digest { kind: CatalogErrorKind, item_id: String, expected: String, actual: String },
    /// `unknown_document`: no document has this id.
    Unknown { item_id: String },
    /// The saved catalogue breaks its contract (shape, duplicate ids).
    Contract(ContractError),
}

impl CatalogError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::Digest { kind, .. } => kind.code(),
            Self::Unknown { .. } => CatalogErrorKind::UnknownDocument.code(),
            Self::Contract(c) => c.code(),
        }
    }

    /// The message in a language, naming the document and both digests.
    pub fn message_in(&self, lang: Lang) -> String {
        match self {
            Self::Digest { kind, item_id, expected, actual } => {
                let (e, a) = match (kind, lang) {
                    (CatalogErrorKind::DocumentChanged, Lang::Zh) => ("冻结摘要", "新正文摘要"),
                    (CatalogErrorKind::DocumentChanged, Lang::En) => ("frozen sha256", "new body's sha256"),
                    (_, Lang::Zh) => ("记录摘要", "正文实际摘要"),
                    (_, Lang::En) => ("recorded sha256", "body's actual sha256"),
                };
                format!("{} (item_id '{item_id}': {e} {expected}, {a} {actual})", kind.message_in(lang))
            }
            Self::Unknown { item_id } => format!("{} (item_id '{item_id}')", CatalogErrorKind::UnknownDocument.message_in(lang)),
            Self::Contract(c) => c.message(),
        }
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_in(Lang::En))
    }
}
impl std::error::Error for CatalogError {}

/// Documents imported once, by id, with their digests frozen at import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentCatalog {
    docs: BTreeMap<String, (Document, String)>,
}

impl DocumentCatalog {
    pub fn new() -> Self {
        Self::default()
    }

    /// Imports a document and freezes its digest. The same body again changes nothing
    /// (the title of the first import stays); another body under the same id is
    /// `document_changed` and nothing is replaced.
    /// A catalogue holding `documents`, imported in order (the first refusal stops it).
    pub fn with_documents(documents: Vec<Document>) -> Result<Self, CatalogError> {
        let mut c = Self::new();
        for doc in documents {
            c.import(doc)?;
        }
        Ok(c)
    }

    pub fn import(&mut self, doc: Document) -> Result<Imported, CatalogError> {
        let sha256 = doc.sha256();
        let lines = splitlines(&doc.body).len();
        if let Some((_, frozen)) = self.docs.get(&doc.id) {
            if *frozen != sha256 {
                return Err(CatalogError::Digest {
                    kind: CatalogErrorKind::DocumentChanged,
                    item_id: doc.id,
                    expected: frozen.clone(),
                    actual: sha256,
                });
            }
            return Ok(Imported { item_id: doc.id, sha256, lines });
        }
        let imported = Imported { item_id: doc.id.clone(), sha256: sha256.clone(), lines };
        self.docs.insert(doc.id.clone(), (doc, sha256));
        Ok(imported)
    }

    pub fn get(&self, id: &str) -> Option<&Document> {
        self.docs.get(id).map(|(d, _)| d)
    }

    /// [`Self::get`], or `unknown_document` naming the id.
    pub fn require(&self, id: &str) -> Result<&Document, CatalogError> {
        self.get(id).ok_or_else(|| CatalogError::Unknown { item_id: id.to_owned() })
    }

    /// The frozen digest of a document.
    pub fn sha256(&self, id: &str) -> Option<&str> {
        self.docs.get(id).map(|(_, s)| s.as_str())
    }

    /// The ids, in sorted order.
    pub fn ids(&self) -> Vec<&str> {
        self.docs.keys().map(String::as_str).collect()
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    pub fn documents(&self) -> impl Iterator<Item = &Document> {
        self.docs.values().map(|(d, _)| d)
    }

    /// The documents indexed for excerpt checks.
    pub fn library(&self) -> Library<'_> {
        Library::with_digests(self.docs.values().map(|(d, s)| (d, s.clone())))
    }

    /// Whether `doc` is exactly the catalogued version of its id.
    pub fn holds(&self, doc: &Document) -> bool {
        self.sha256(&doc.id).is_some_and(|s| s == doc.sha256())
    }

    pub fn to_json(&self) -> CatalogJson {
        let documents = self
            .docs
            .values()
            .map(|(d, s)| CatalogEntry { id: d.id.clone(), title: d.title.clone(), body: d.body.clone(), sha256: s.clone() })
            .collect();
        CatalogJson { documents }
    }

    /// Loads a saved catalogue, re-verifying every digest: a body whose digest is not
    /// the recorded one is `catalog_digest_mismatch`, naming the id and both digests.
    pub fn from_value(v: &Value) -> Result<Self, CatalogError> {
        let saved = CatalogJson::from_value(v).map_err(CatalogError::Contract)?;
        let mut catalog = DocumentCatalog::new();
        for e in saved.documents {
            let doc = Document { id: e.id, title: e.title, body: e.body };
            let actual = doc.sha256();
            if actual != e.sha256 {
                return Err(CatalogError::Digest { kind: CatalogErrorKind::DigestMismatch, item_id: doc.id, expected: e.sha256, actual });
            }
            catalog.docs.insert(doc.id.clone(), (doc, actual));
        }
        Ok(catalog)
    }
}

impl Contract for CatalogEntry {
    const SUBJECT: &'static str = "catalog_entry";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["id", "title", "body", "sha256"])?;
        let doc = Document::fields(c, m, path);
        let sha256 = c.string_field(m, path, "sha256", &sized(0, 64));
        if c.count() != before {
            return None;
        }
        let doc = doc?;
        Some(CatalogEntry { id: doc.id, title: doc.title, body: doc.body, sha256: sha256? })
    }
}

impl Contract for CatalogJson {
    const SUBJECT: &'static str = "catalog";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["documents"])?;
        let dp = join(path, "documents");
        let documents = c.required(m, path, "documents").and_then(|d| c.list(d, &dp, 0, usize::MAX, CatalogEntry::check))?;
        let mut seen = std::collections::BTreeSet::default();
        for (i, d) in documents.iter().enumerate() {
            if !seen.insert(d.id.as_str()) {
                c.push(&join(&join(&dp, &i.to_string()), "id"), ViolationCode::DuplicateDocumentId, format!("document id '{}' is used twice", d.id));
            }
        }
        (c.count() == before).then_some(CatalogJson { documents })
    }
}

impl crate::error::Coded for CatalogError {
    fn code(&self) -> &'static str {
        CatalogError::code(self)
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Contract(c) => crate::error::Coded::message(c, lang),
            _ => self.message_in(lang),
        }
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<crate::error::Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            _ => None,
        }
    }
    /// `item_id`, and for a digest refusal `expected_sha256` and `actual_sha256`.
    fn details(&self) -> Vec<(&'static str, Value)> {
        match self {
            Self::Digest { item_id, expected, actual, .. } => {
                vec![("item_id", item_id.as_str().into()), ("expected_sha256", expected.as_str().into()), ("actual_sha256", actual.as_str().into())]
            }
            Self::Unknown { item_id } => vec![("item_id", item_id.as_str().into())],
            Self::Contract(_) => Vec::new(),
        }
    }
}

crate::error::coded_enum! {
    /// Why the document catalogue refused a document or a saved catalogue.
    CatalogErrorKind {
        /// A different body was imported under an id already in the catalogue; nothing was replaced.
        DocumentChanged => ("document_changed", "同一资料标识的正文已变更,拒绝导入;原记录保持不变。", "The document's body changed under the same id; the import is refused and the frozen version stays."),
        /// A saved catalogue records a digest that is not the digest of its body.
        DigestMismatch => ("catalog_digest_mismatch", "资料目录记录的摘要与正文不一致,拒绝加载。", "A saved catalogue records a digest that is not its body's; it is not loaded."),
        /// No document of the catalogue has this id.
        UnknownDocument => ("unknown_document", "资料目录中没有该标识的资料。", "The catalogue has no document with this id."),
    }
}
