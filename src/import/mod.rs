//! Importers: what models return, turned into bundles that the checker binds to the
//! host's own snapshots. Each importer records what it did per citation or source in the
//! bundle's `import_notes` (the report's contract stays as it is).
//!
//! - [`anthropic`]: a Messages API request and its response with citations enabled.
//! - [`quotes`]: quote-only citations (`source_id`, `quote`, optional `prefix` /
//!   `suffix`), located by exact match with the one locator ([`crate::store::locate`]).

pub mod anthropic;
pub mod quotes;

/// What an importer did for one citation or one source (it belongs to the bundle).
pub use crate::bundle::ImportNote;
