//! What the host lends the core, installed once by the binding when its module loads: a
//! SHA-256 faster than the module's for large texts (the Node build's `node:crypto`), the
//! clock, and the user's locale (the language of every call that names none). Nothing is
//! threaded through the calls: the digests that may be hosted ask [`installed`], the
//! calls without a language [`lang`]. Natively nothing need be installed (the machine's
//! clock, the built-in SHA-256, English). The state is per thread: the binding's module
//! runs on one.

use std::cell::Cell;

use crate::error::Lang;

/// A host's SHA-256: the lower-case hex digest of the bytes, or `None` when it cannot
/// hash them (the built-in hasher then does).
pub type Sha256 = fn(&[u8]) -> Option<String>;

/// The host's capabilities.
#[derive(Clone, Copy, Debug, Default)]
pub struct Host {
    /// The host's SHA-256 and the smallest text (in UTF-8 bytes) it is given.
    pub sha256: Option<(Sha256, usize)>,
    /// Microseconds since the Unix epoch.
    pub micros: Option<fn() -> i64>,
    /// The language of the host's locale ([`Lang::from_locale`]).
    pub lang: Option<Lang>,
}

thread_local! {
    static HOST: Cell<Host> = const { Cell::new(Host { sha256: None, micros: None, lang: None }) };
}

/// What is installed.
pub fn installed() -> Host {
    HOST.with(Cell::get)
}

/// Installs the host's SHA-256 for texts of `min_bytes` or more (`None` removes it).
pub fn install_sha256(sha256: Option<Sha256>, min_bytes: usize) {
    HOST.with(|h| h.set(Host { sha256: sha256.map(|f| (f, min_bytes)), ..h.get() }));
}

/// Installs the host's clock.
pub fn install_clock(micros: fn() -> i64) {
    HOST.with(|h| h.set(Host { micros: Some(micros), ..h.get() }));
}

/// Installs the host's locale: a browser's `navigator.language`, or in Node the first
/// non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (`None`: the host has none).
pub fn install_locale(locale: Option<&str>) {
    HOST.with(|h| h.set(Host { lang: locale.map(Lang::from_locale), ..h.get() }));
}

/// The library's default language: the host's locale's, English when none was installed.
pub fn lang() -> Lang {
    installed().lang.unwrap_or(Lang::En)
}
