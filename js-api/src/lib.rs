//! The JavaScript binding of evidence-check: the only crate that touches wasm-bindgen and
//! js-sys. The core (the `evidence_check` crate) decides; this crate marshals.
//!
//! Data crosses the boundary with the reference's snake_case field names. Every thrown
//! value is an `Error` whose `name` is `ContractError` (with `.issues`) or
//! `EvidenceError`, with a stable `.code`. One module holds every export; the package's
//! `evidence-check/extras` subpath re-exports part of it.
#![cfg(target_arch = "wasm32")]

mod args;
mod bytes;
mod catalog;
mod check;
mod copy;
mod errors;
mod host;
mod import;
mod offsets;
mod out;
mod outcome;
mod providers;
mod report;
mod schema;
mod store;
mod trap;

use js_sys::{JsString, Reflect};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use evidence_check::bundle::Bundle;
use evidence_check::json::{parse_strict, DEFAULT_MAX_INPUT_BYTES};
use evidence_check::contract::Limits;
use evidence_check::contract::{Citation, Contract, Report, Scope, SourceRef};
use evidence_check::error::{BindingError, BindingErrorKind, Coded, Lang};
use evidence_check::options::{default_lang, CallOptions};
use evidence_check::citation::Unit;
use evidence_check::schema::Dialect;
use evidence_check::catalog::DocumentCatalog as CoreCatalog;
use evidence_check::excerpt::{claims_from_value, documents_from_value, AnswerStatus, Document, ExcerptClaim, Library};
use evidence_check::outcome::{observations_from_value, Effects, Expected, Finish, Graded, Task};
use evidence_check::review::Review;
use evidence_check::store::EvidenceStore as CoreStore;

/// The data interfaces and options, generated from the Rust types (`src/ts.rs` writes
/// `js/generated/types.d.ts`; a test fails when it is stale).
#[wasm_bindgen(typescript_custom_section)]
const GENERATED_TYPES: &str = include_str!("../../js/generated/types.d.ts");

/// What the Rust types do not describe, written by hand: the parsed forms (every default
/// filled in, made from the generated input types), the policy input, the W3C annotation,
/// the import forms, and the JS-side classes and handles.
#[wasm_bindgen(typescript_custom_section)]
const BINDING_TYPES: &str = include_str!("../../js/binding-types.d.ts");

use evidence_check::cell::{Exclusive, TrapCell};
use {args::*, bytes::*, copy::*, out::*};
pub use {catalog::*, check::*, errors::*, host::*, import::*, offsets::*, outcome::*, providers::*, report::*, schema::*, store::*};
