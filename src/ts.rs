//! The generator of `js/generated/types.d.ts`: the TypeScript data interfaces of the
//! package, made from the Rust types themselves (`#[cfg_attr(test, derive(ts_rs::TS))]`
//! on each type, with serde's renames, tags and skipped fields read by ts-rs, and a
//! `#[ts(...)]` override where a value is serialized by hand). Compiled only for tests:
//! the shipped `.wasm` carries none of it, and the binding includes the committed file
//! into its `.d.ts` (`include_str!` in `js-api/src/lib.rs`).
//!
//! `cargo test --lib generated_types` fails when the file is stale;
//! `UPDATE_TYPES=1 cargo test --lib generated_types` rewrites it.

use std::any::TypeId;
use std::collections::BTreeSet;

use ts_rs::{Config, Dependency, TS};

use crate::codes::{EVIDENCE_CODE_TS, ISSUE_CODE_TS};

/// Where the generated declarations are committed (relative to the crate root).
pub const PATH: &str = "js/generated/types.d.ts";

struct Out {
    cfg: Config,
    text: String,
    ids: BTreeSet<TypeId>,
    /// (the Rust type's name, its TypeScript name)
    names: Vec<(String, String)>,
    needed: Vec<(String, Dependency)>,
}

impl Out {
    fn add<T: TS + 'static>(&mut self) -> &mut Self {
        if let Some(docs) = T::docs() {
            self.text.push_str(&docs);
        }
        self.text.push_str("export ");
        self.text.push_str(&T::decl(&self.cfg));
        self.text.push('\n');
        self.ids.insert(TypeId::of::<T>());
        let name = T::ident(&self.cfg);
        let rust = std::any::type_name::<T>().rsplit("::").next().unwrap_or_default().to_owned();
        self.names.push((rust, name.clone()));
        self.needed.extend(T::dependencies(&self.cfg).into_iter().map(|d| (name.clone(), d)));
        self
    }

    /// `T` with the fields of `F` flattened into it (serde's `flatten` of an `Option<F>`
    /// whose fields are all optional: ts-rs cannot flatten an `Option`).
    fn add_flat<T: TS + 'static, F: TS + 'static>(&mut self) -> &mut Self {
        self.add::<T>();
        let decl = T::decl(&self.cfg);
        let flat = format!("{} & {};", decl.trim_end_matches(';'), F::ident(&self.cfg));
        self.text = self.text.replacen(&decl, &flat, 1);
        self.needed.extend(F::dependencies(&self.cfg).into_iter().map(|d| (T::ident(&self.cfg), d)));
        self
    }

    fn union(&mut self, docs: &str, name: &str, members: &[&str]) -> &mut Self {
        let list: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
        self.text.push_str(&format!("/** {docs} */\nexport type {name} = {};\n", list.join(" | ")));
        self
    }
}

/// The whole file.
pub fn generate() -> String {
    generate_with_names().0
}

/// The file, and the TypeScript name of each Rust type in it.
fn generate_with_names() -> (String, Vec<(String, String)>) {
    use crate::{assess, bundle, catalog, contract, error, excerpt, import, options, outcome, policy, render, review, store, store::locate};
    let mut out = Out {
        cfg: Config::new().with_large_int("number"),
        text: String::from(
            "// Generated from the Rust types by src/ts.rs: do not edit.\n\
             // `UPDATE_TYPES=1 cargo test --lib generated_types` rewrites it; the test fails when it is stale.\n\n",
        ),
        ids: BTreeSet::new(),
        names: Vec::new(),
        needed: Vec::new(),
    };
    out.add::<error::Lang>()
        // contracts: the inputs, with the fields a reader fills in marked optional
        .add::<contract::Scope>()
        .add::<contract::SourceKind>()
        .add::<contract::SourceSpec>()
        .add::<contract::SourceRef>()
        .add::<contract::ReadPayload>()
        .add::<contract::ReadResult>()
        .add::<contract::Citation>()
        .add::<contract::ClaimKind>()
        .add::<contract::Claim>()
        .add::<contract::Conflict>()
        .add::<contract::Report>()
        // the store, reviews, assessment, artifact
        .add::<store::Snapshot>()
        .add::<review::Verdict>()
        .add::<review::Review>()
        .add::<assess::ClaimState>()
        .add::<assess::Status>()
        .add::<assess::RepairHint>()
        .add::<error::Detail>()
        .add_flat::<assess::Issue, error::Detail>()
        .add::<assess::Assessment>()
        .add::<render::Artifact>()
        .add::<error::Violation>()
        // bundles
        .add::<bundle::BundleSource>()
        .add::<import::ImportNote>()
        .add::<bundle::Bundle>()
        .add_flat::<bundle::RenderIssue, error::Detail>()
        .add::<bundle::BundleResult>()
        // locating quotes
        .add::<locate::Whitespace>()
        .add::<locate::Located>()
        .add::<import::quotes::LocatedCitation>()
        .add::<import::quotes::LocateIssue>()
        .add::<import::quotes::LocateResult>()
        .add::<import::quotes::LocatedBundle>()
        // W3C annotations read from text
        .add::<crate::annotation::ContextTrim>()
        .add::<crate::annotation::AnnotationImport>()
        // provider importers
        .union("Why a provider's citation was not checked, or was flagged.", "ImportIssueCode", import::provider::ImportIssueKind::CODES)
        .add::<import::provider::ImportIssue>()
        .add::<import::provider::ProviderImport>()
        // the policy
        .add::<policy::AnyIdentifier>()
        .add::<policy::KindRule>()
        .add::<policy::FilenameRule>()
        .add::<policy::IdRule>()
        .add::<policy::Policy>()
        // documents, excerpts, outcomes, grades
        .add::<excerpt::Document>()
        .add::<excerpt::ExcerptClaim>()
        .add::<excerpt::ExcerptReason>()
        .add::<excerpt::ExcerptCheck>()
        .add::<excerpt::AnswerStatus>()
        .add::<excerpt::Evaluation>()
        .add::<catalog::Imported>()
        .add::<catalog::CatalogEntry>()
        .add::<catalog::CatalogJson>()
        .add::<outcome::TaskKind>()
        .add::<outcome::Task>()
        .add::<outcome::ReserveResult>()
        .add::<outcome::ReserveRequest>()
        .add::<outcome::Observation>()
        .add::<outcome::Finish>()
        .add::<outcome::OutcomeReason>()
        .add::<outcome::Outcome>()
        .add::<outcome::Expected>()
        .add::<outcome::Effects>()
        .add::<outcome::GradeChecks>()
        .add::<outcome::GradeMode>()
        .add::<outcome::Grade>()
        .union("A check of a grade.", "GradeCheck", &outcome::CHECK_NAMES)
        // the options of every call (camelCase)
        .add::<options::Compat>()
        .add::<options::DialectName>()
        .add::<options::WhitespaceName>()
        .add::<options::OffsetUnit>()
        .add::<options::ReviewsName>()
        .add::<options::StoreOptions>()
        .add::<options::QuoteOptions>()
        .add::<options::RangeOptions>()
        .add::<options::ParseOptions>()
        .add::<options::SchemaOptions>()
        .add::<options::ReportDigestOptions>()
        .add::<options::ReviewOptions>()
        .add::<options::AssessOptions>()
        .add::<options::RenderOptions>()
        .add::<options::CheckBundleOptions>()
        .add::<options::WhitespaceOptions>()
        .add::<options::LocateOptionsIn>()
        .add::<options::LocateBundleOptions>()
        .add::<options::AnthropicOptions>()
        .add::<options::ProviderOptions>()
        .add::<options::ModelResponseOptions>()
        .add::<options::CatalogOptions>()
        .add::<options::LangOptions>()
        .add::<options::ParseBundleOptions>();
    let mut text = std::mem::take(&mut out.text);
    text.push_str(EVIDENCE_CODE_TS);
    text.push('\n');
    text.push_str(ISSUE_CODE_TS);
    text.push('\n');
    out.text = text;
    // Every type a generated one names is generated too.
    let missing: Vec<String> =
        out.needed.iter().filter(|(_, d)| !out.ids.contains(&d.type_id)).map(|(by, d)| format!("{} (named by {by})", d.ts_name)).collect();
    assert!(missing.is_empty(), "types named but not generated: {missing:?}");
    (out.text, out.names)
}

#[test]
fn generated_types() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(PATH);
    let text = generate();
    if std::env::var_os("UPDATE_TYPES").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_default();
        }
        std::fs::write(&path, &text).unwrap_or_default();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == text, "{PATH} is stale: run `UPDATE_TYPES=1 cargo test --lib generated_types` and commit it");
}

/// The binding's source: every file of `js-api/src`, in name order.
#[cfg(test)]
fn binding_source(root: &std::path::Path) -> String {
    let mut files: Vec<_> = std::fs::read_dir(root.join("js-api/src")).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rs")).collect();
    files.sort();
    files.iter().map(|p| std::fs::read_to_string(p).unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The binding declares each export's options with the generated type of the options it
/// reads: `#[wasm_bindgen(unchecked_optional_param_type = "X | null")] options` and
/// `options_arg::<crate::options::Y>` in one export, where `X` is `Y`'s TypeScript name.
#[test]
fn each_export_declares_the_options_it_reads() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let wasm = binding_source(root);
    let names = generate_with_names().1;
    let mut checked = 0;
    let mut wrong = Vec::new();
    let marker = "options_arg::<evidence_check::options::";
    let mut at = 0;
    while let Some(i) = wasm.get(at..).and_then(|r| r.find(marker)).map(|i| i + at) {
        at = i + marker.len();
        let read = wasm.get(at..).and_then(|r| r.split('>').next()).unwrap_or_default();
        // the export's own signature: from its last `fn ` on
        let export = wasm.get(..i).unwrap_or_default().rsplit("fn ").next().unwrap_or_default();
        // `…param_type = "X | null")] options: …`: the type declared for `options`
        let Some(before) = export.split(")] options: ").next().filter(|b| b.len() < export.len()) else { continue };
        let ts = before.rsplit("param_type = \"").next().unwrap_or_default().trim_end_matches('"').trim_end_matches(" | null");
        let expected = names.iter().find(|(rust, _)| rust == read).map(|(_, ts)| ts.as_str()).unwrap_or("?");
        checked += 1;
        if ts != expected {
            wrong.push(format!("reads {read} ({expected}) but declares {ts}"));
        }
    }
    assert!(checked >= 15, "only {checked} exports checked");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
