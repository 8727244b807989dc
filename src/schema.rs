//! JSON Schemas (draft 2020-12) of the contracts, for asking a model for structured
//! output. Every rule a schema can state is stated (patterns, lengths in code points,
//! item limits, `additionalProperties: false`, the `kind` enum); the rules no schema can
//! state are listed in each schema's `description`.
//!
//! The `OpenAiStrict` dialect follows the restrictions of strict structured-output modes:
//! every property is required, optional ones are nullable, and string lengths move into
//! the descriptions. [`strip_nulls`] turns such output back into the contract's shape.

use serde_json::{json, Map, Value};

use crate::contract::Limits;
pub use crate::contract::dialect::{strip_nulls, Dialect, NULLABLE_FIELDS};


const FILENAME: &str = "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$";
/// Text that is not only whitespace (a claim's text, an inference's rationale).
const NOT_BLANK: &str = "\\S";
const DIGEST: &str = "^[a-f0-9]{64}$";

/// The cross-field rules of a report, which no schema states.
pub const REPORT_RULES: &str = "Rules a schema cannot state, also enforced: numbers are whole numbers written without a fraction or exponent; a citation's start < end (half-open range of Unicode code points into the source's text with CRLF and CR turned into LF), and its quote is exactly that range of that revision; a claim's text is not blank, and an inference has a non-blank rationale; claim ids are unique; one citation_id names one citation across the report; a claim does not cite the same citation twice; a conflict's members are unique and name claims of the report; no object has the same key twice.";

struct Builder<'p> {
    dialect: Dialect,
    policy: &'p Limits,
}

impl Builder<'_> {
    fn identifier(&self) -> Value {
        self.pattern(crate::policy::Policy::id_pattern(self.policy.identifier))
    }

    fn scope_id(&self) -> Value {
        self.pattern(crate::policy::Policy::id_pattern(self.policy.scope_id))
    }

    fn filename(&self) -> Value {
        match self.policy.filename {
            crate::policy::FilenameRule::Markdown => self.pattern(FILENAME),
            crate::policy::FilenameRule::RelativePath => {
                let mut v = self.pattern(crate::policy::RELATIVE_PATH_PATTERN);
                set(&mut v, "description", json!(format!("{} (at most 255 UTF-8 bytes)", crate::policy::RELATIVE_PATH_TEXT)));
                v
            }
        }
    }

    fn kind(&self) -> Value {
        match &self.policy.kinds {
            crate::policy::KindRule::List(names) => json!({"type": "string", "enum": names}),
            crate::policy::KindRule::Any(_) => self.identifier(),
        }
    }

    /// A string of `min..=max` code points that is not only whitespace.
    fn text(&self, min: usize, max: usize) -> Value {
        let mut v = self.string(min, max);
        match self.dialect {
            Dialect::Standard => set(&mut v, "pattern", json!(NOT_BLANK)),
            Dialect::OpenAiStrict => {
                let d = v.get("description").and_then(Value::as_str).unwrap_or("").to_owned();
                set(&mut v, "description", json!(format!("{d}; must contain a character that is not whitespace")));
            }
        }
        v
    }

    fn string(&self, min: usize, max: usize) -> Value {
        match self.dialect {
            Dialect::Standard => json!({"type": "string", "minLength": min, "maxLength": max}),
            Dialect::OpenAiStrict => json!({"type": "string", "description": format!("{min} to {max} characters (Unicode code points)")}),
        }
    }

    fn pattern(&self, pattern: &str) -> Value {
        json!({"type": "string", "pattern": pattern})
    }

    /// An object; `optional` properties are left out of `required` (standard) or made
    /// nullable and required (strict).
    fn object(&self, required: &[(&str, Value)], optional: &[(&str, Value)]) -> Value {
        let mut props = Map::new();
        let mut names: Vec<&str> = Vec::new();
        for (k, v) in required {
            props.insert((*k).to_owned(), v.clone());
            names.push(k);
        }
        for (k, v) in optional {
            let v = match self.dialect {
                Dialect::Standard => v.clone(),
                Dialect::OpenAiStrict => nullable(v.clone()),
            };
            props.insert((*k).to_owned(), v);
            if self.dialect == Dialect::OpenAiStrict {
                names.push(k);
            }
        }
        json!({"type": "object", "additionalProperties": false, "required": names, "properties": props})
    }

    fn array(&self, items: Value, min: usize, max: usize) -> Value {
        let mut a = json!({"type": "array", "items": items, "maxItems": max});
        if min > 0 {
            set(&mut a, "minItems", json!(min));
        }
        a
    }

    fn source_ref(&self) -> Value {
        self.object(&[("source_id", self.identifier()), ("revision", json!({"type": "integer", "minimum": 1})), ("digest", self.pattern(DIGEST))], &[])
    }

    fn citation(&self) -> Value {
        self.object(
            &[
                ("citation_id", self.identifier()),
                ("ref", json!({"$ref": "#/$defs/SourceRef"})),
                ("start", json!({"type": "integer", "minimum": 0})),
                ("end", json!({"type": "integer", "minimum": 1})),
                ("quote", self.string(1, self.policy.max_quote_chars)),
            ],
            &[],
        )
    }

    fn claim(&self, limits: &Limits) -> Value {
        let rationale = match self.dialect {
            Dialect::Standard => self.string(0, limits.max_rationale_chars),
            Dialect::OpenAiStrict => {
                let mut v = self.string(0, limits.max_rationale_chars);
                let d = v.get("description").and_then(Value::as_str).unwrap_or("").to_owned();
                set(&mut v, "description", json!(format!("{d}; required, with a character that is not whitespace, when kind is inference")));
                v
            }
        };
        let mut claim = self.object(
            &[("claim_id", self.identifier()), ("text", self.text(1, limits.max_claim_chars)), ("kind", json!({"type": "string", "enum": ["fact", "inference"]}))],
            &[("rationale", rationale), ("citations", self.array(json!({"$ref": "#/$defs/Citation"}), 0, limits.max_citations))],
        );
        if self.dialect == Dialect::Standard {
            // An inference states its rationale.
            set(&mut claim, "if", json!({"properties": {"kind": {"const": "inference"}}, "required": ["kind"]}));
            set(&mut claim, "then", json!({"required": ["rationale"], "properties": {"rationale": {"type": "string", "pattern": NOT_BLANK}}}));
        }
        claim
    }

    fn conflict(&self) -> Value {
        self.object(&[("claim_ids", self.array(self.identifier(), 2, 4)), ("reason", self.string(1, 1000))], &[])
    }

    fn report(&self, limits: &Limits) -> Value {
        self.object(
            &[("title", self.string(1, 120)), ("claims", self.array(json!({"$ref": "#/$defs/Claim"}), 1, limits.max_claims))],
            &[
                ("conflicts", self.array(json!({"$ref": "#/$defs/Conflict"}), 0, limits.max_conflicts)),
                ("gaps", self.array(self.string(1, 1000), 0, limits.max_gaps)),
            ],
        )
    }

    fn defs(&self, limits: &Limits) -> Value {
        json!({
            "SourceRef": self.source_ref(),
            "Citation": self.citation(),
            "Claim": self.claim(limits),
            "Conflict": self.conflict(),
            "Report": self.report(limits),
        })
    }

    /// A root schema: `root` with the shared `$defs`, a title and a description.
    fn root(&self, title: &str, root: Value, limits: &Limits, extra_defs: &[(&str, Value)]) -> Value {
        let mut schema = root;
        let mut defs = self.defs(limits);
        for (k, v) in extra_defs {
            set(&mut defs, k, v.clone());
        }
        set(&mut schema, "$defs", defs);
        set(&mut schema, "title", json!(title));
        set(&mut schema, "description", json!(REPORT_RULES));
        if self.dialect == Dialect::Standard {
            set(&mut schema, "$schema", json!("https://json-schema.org/draft/2020-12/schema"));
            set(&mut schema, "$id", json!(format!("urn:evidence-check:schema:{}", title.to_ascii_lowercase())));
        }
        schema
    }
}

/// Sets a key of an object value (does nothing to other values).
fn set(v: &mut Value, key: &str, x: Value) {
    if let Some(m) = v.as_object_mut() {
        m.insert(key.to_owned(), x);
    }
}

fn nullable(v: Value) -> Value {
    match v.get("type").cloned() {
        Some(Value::String(t)) => {
            let mut v = v;
            set(&mut v, "type", json!([t, "null"]));
            v
        }
        _ => json!({"anyOf": [v, {"type": "null"}]}),
    }
}

/// The schema of a report.
pub fn report_schema(dialect: Dialect, limits: &Limits) -> Value {
    let b = Builder { dialect, policy: limits };
    b.root("Report", b.report(limits), limits, &[])
}

/// The schema of a citation.
pub fn citation_schema(dialect: Dialect, limits: &Limits) -> Value {
    let b = Builder { dialect, policy: limits };
    b.root("Citation", b.citation(), limits, &[])
}

/// The schema of a claim.
pub fn claim_schema(dialect: Dialect, limits: &Limits) -> Value {
    let b = Builder { dialect, policy: limits };
    b.root("Claim", b.claim(limits), limits, &[])
}

/// The schema of a bundle (the CLI's input).
pub fn bundle_schema(dialect: Dialect, limits: &Limits) -> Value {
    let b = Builder { dialect, policy: limits };
    let scope = b.object(&[("tenant_id", b.scope_id()), ("user_id", b.scope_id())], &[]);
    let spec = b.object(
        &[
            ("source_id", b.identifier()),
            ("title", b.string(1, 120)),
            ("locator", b.string(1, 300)),
            ("filename", b.filename()),
            ("kind", b.kind()),
        ],
        &[],
    );
    let source = b.object(
        &[("spec", json!({"$ref": "#/$defs/SourceSpec"})), ("content", json!({"type": "string"}))],
        &[("revision", json!({"type": "integer", "minimum": 1})), ("fetched_at", b.string(1, 64))],
    );
    let review = b.object(
        &[
            ("scope", json!({"$ref": "#/$defs/Scope"})),
            ("report_digest", b.pattern(DIGEST)),
            ("claim_id", b.identifier()),
            ("verdict", json!({"type": "string", "enum": ["supported", "insufficient", "contradicted"]})),
            ("note", b.string(1, limits.max_note_chars)),
            ("reviewed_at", b.string(1, 64)),
        ],
        &[("signature", b.pattern(DIGEST))],
    );
    let enumeration = |values: &[&str]| json!({"type": "string", "enum": values});
    // What an importer recorded (crate::import::ImportNote): one citation_id or source_id.
    let note = b.object(
        &[("importer", enumeration(&["anthropic", "locate"]))],
        &[
            ("citation_id", b.identifier()),
            ("source_id", b.identifier()),
            ("document_index", json!({"type": "integer", "minimum": 0})),
            ("unit", enumeration(&["code_point", "utf16", "block", "unmatched"])),
            ("separator", b.string(0, 16)),
            ("whitespace", enumeration(&["exact", "loose"])),
            ("claim_id", b.identifier()),
            ("code", enumeration(&["quote_not_found", "quote_ambiguous", "source_not_in_scope", "source_not_ingested", "source_removed", "ref_unavailable"])),
            ("quote", json!({"type": "string"})),
        ],
    );
    let bundle = b.object(
        &[
            ("scope", json!({"$ref": "#/$defs/Scope"})),
            ("sources", json!({"type": "array", "items": {"$ref": "#/$defs/BundleSource"}, "maxItems": limits.max_sources})),
            ("report", json!({"$ref": "#/$defs/Report"})),
        ],
        &[
            ("reviews", json!({"type": "array", "items": {"$ref": "#/$defs/Review"}})),
            ("import_notes", json!({"type": "array", "items": {"$ref": "#/$defs/ImportNote"}})),
        ],
    );
    b.root("Bundle", bundle, limits, &[("Scope", scope), ("SourceSpec", spec), ("BundleSource", source), ("Review", review), ("ImportNote", note)])
}

