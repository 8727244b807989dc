//! Where time comes from. Every timestamp (`fetched_at`, `reviewed_at`, the export
//! time) is read from an injectable clock, so outputs can be reproduced byte for byte.


/// A source of timestamps in the reference's format (Python's
/// `datetime.now(timezone.utc).isoformat()`).
#[derive(Clone, Debug)]
pub enum Clock {
    /// Always this exact string (checked to be an ISO 8601 date-time with an offset).
    Fixed(String),
    /// Reads microseconds since the Unix epoch from this function.
    Source(fn() -> i64),
}

impl Clock {
    /// A fixed clock; `now` must look like `2026-11-29T00:00:00+00:00`
    /// (fraction optional, `Z` allowed).
    pub fn fixed(now: &str) -> Result<Clock, ClockErrorKind> {
        if is_iso_datetime(now) {
            Ok(Clock::Fixed(now.to_owned()))
        } else {
            Err(ClockErrorKind::InvalidNow)
        }
    }

    /// The machine's clock. On `wasm32` the binding supplies the host's clock instead.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn system() -> Clock {
        Clock::Source(system_micros)
    }

    /// The host's clock: the one the binding installed ([`crate::host::install_clock`]),
    /// else the machine's (natively; a wasm host that installs none reads the epoch).
    pub fn host() -> Clock {
        Clock::Source(crate::host::installed().micros.unwrap_or(system_micros))
    }

    /// The current time as text.
    pub fn now(&self) -> String {
        match self {
            Clock::Fixed(s) => s.clone(),
            Clock::Source(f) => format_utc_micros(f()),
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn system_micros() -> i64 {
    0
}

#[cfg(not(target_arch = "wasm32"))]
fn system_micros() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_micros()).unwrap_or(i64::MAX),
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Formats microseconds since the epoch as Python's `isoformat()` of a UTC datetime:
/// `2026-11-29T18:11:07.123000+00:00`, the fraction left out when it is zero.
pub fn format_utc_micros(micros: i64) -> String {
    let secs = micros.div_euclid(1_000_000);
    let frac = micros.rem_euclid(1_000_000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    let (hh, mm, ss) = (sod / 3600, sod % 3600 / 60, sod % 60);
    if frac == 0 {
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}+00:00")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.{frac:06}+00:00")
    }
}

fn digits(s: &[u8], n: usize) -> Option<(u32, &[u8])> {
    let (head, rest) = (s.get(..n)?, s.get(n..)?);
    if !head.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = head.iter().fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0'));
    Some((v, rest))
}

fn expect(s: &[u8], c: u8) -> Option<&[u8]> {
    s.split_first().filter(|(f, _)| **f == c).map(|(_, r)| r)
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with field ranges checked.
pub fn is_iso_datetime(s: &str) -> bool {
    fn parse(s: &[u8]) -> Option<()> {
        let (y, s) = digits(s, 4)?;
        let (mo, s) = digits(expect(s, b'-')?, 2)?;
        let (d, s) = digits(expect(s, b'-')?, 2)?;
        let (h, s) = digits(expect(s, b'T')?, 2)?;
        let (mi, s) = digits(expect(s, b':')?, 2)?;
        let (se, mut s) = digits(expect(s, b':')?, 2)?;
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        let max_day = *days.get(usize::try_from(mo).ok()?.checked_sub(1)?)?;
        if !(1..=max_day).contains(&d) || h > 23 || mi > 59 || se > 59 {
            return None;
        }
        if let Some(r) = expect(s, b'.') {
            let n = r.iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=9).contains(&n) {
                return None;
            }
            s = r.get(n..)?;
        }
        if s == b"Z" {
            return Some(());
        }
        let s = expect(s, b'+').or_else(|| expect(s, b'-'))?;
        let (oh, s) = digits(s, 2)?;
        let (om, s) = digits(expect(s, b':')?, 2)?;
        (s.is_empty() && oh <= 23 && om <= 59).then_some(())
    }
    parse(s.as_bytes()).is_some()
}

crate::error::coded_enum! {
    /// Why a clock setting was refused.
    ClockErrorKind {
        /// `now` is not an ISO 8601 date-time with seconds and an offset (`2026-11-29T00:00:00+00:00`).
        InvalidNow => ("invalid_now", "now 必须是带秒和时区偏移的 ISO 8601 时间,例如 2026-11-29T00:00:00+00:00。", "now must be an ISO 8601 date-time with seconds and a UTC offset, such as 2026-11-29T00:00:00+00:00."),
    }
}
