//! evidence-check: checks an agent's cited report against source snapshots.
//!
//! The core is pure Rust; the JavaScript binding is the crate beside it (`js-api/`).
//! Offsets are Unicode code points into LF-normalised text, as in the reference.

pub mod annotation;
pub mod assess;
pub mod bundle;
pub mod catalog;
pub mod cell;
pub mod citation;
pub mod clock;
pub mod codes;
pub mod contract;
pub mod digest;
pub mod error;
pub mod excerpt;
pub mod host;
pub mod import;
pub mod json;
pub mod options;
pub mod outcome;
pub mod parsed;
pub mod policy;
pub mod render;
pub mod review;
pub mod rules;
pub mod schema;
pub mod store;
pub mod visible;

#[cfg(test)]
mod ts;



pub use assess::{assess, Assessment, ClaimState, Issue, Status};
pub use bundle::{check_bundle, check_bundle_owned, Bundle, BundleOptions, BundleResult};
pub use catalog::DocumentCatalog;
pub use clock::Clock;
pub use contract::{Citation, Claim, ClaimKind, Conflict, Contract, ReadResult, Report, Scope, SourceKind, SourceRef, SourceSpec};
pub use digest::{digest_text, report_digest};
pub use error::{ContractError, Lang, Violation, ViolationCode};
pub use render::{render, Artifact, RenderError, RenderErrorKind};
pub use review::{record_review, Review, ReviewErrorKind, SignatureProblem, Verdict};
pub use store::{EvidenceStore, Snapshot, StoreError, StoreErrorKind, StoreOptions};
pub use policy::{Policy, PolicyError};
