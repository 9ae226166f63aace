//! Dates of the history: UTC times written as RFC 3339
//! (`2026-11-23T18:20:07Z`, which sort as text in time order), made from
//! file times and read back as days for the plots' time axis. The calendar
//! arithmetic is Howard Hinnant's `days_from_civil` and its inverse.

use super::HistoryError;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// `t` as an RFC 3339 UTC time, to the second (times before 1970 are
/// written as 1970-01-01T00:00:00Z).
pub fn utc_date(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// When `path` was last modified, as [`utc_date`] writes it.
///
/// # Errors
/// [`HistoryError::Io`] naming the file.
pub fn file_date(path: &Path) -> Result<String, HistoryError> {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map(utc_date)
        .map_err(|source| HistoryError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// Days since 1970-01-01 (with the time of day as a fraction) of a date
/// written as [`utc_date`] writes it, or of a bare `YYYY-MM-DD`; `None` for
/// anything else.
pub fn date_days(date: &str) -> Option<f64> {
    let num = |s: Option<&str>| s.and_then(|s| s.parse::<i64>().ok());
    let (day, time) = date.split_once('T').unwrap_or((date, "00:00:00Z"));
    let mut ymd = day.splitn(3, '-');
    let (y, m, d) = (num(ymd.next())?, num(ymd.next())?, num(ymd.next())?);
    let mut hms = time.strip_suffix('Z')?.splitn(3, ':');
    let (h, mi, s) = (num(hms.next())?, num(hms.next())?, num(hms.next())?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let secs = h * 3600 + mi * 60 + s;
    Some(days_from_civil(y, m, d) as f64 + secs as f64 / 86_400.0)
}

/// A point of the time axis (days since 1970-01-01) as a label:
/// `2026-11-23`, or `11-23 18:20` when `with_time` is set.
pub fn day_label(days: f64, with_time: bool) -> String {
    let whole = days.floor();
    let (y, m, d) = civil_from_days(whole as i64);
    if with_time {
        let minutes = ((days - whole) * 1440.0).round() as i64;
        format!("{m:02}-{d:02} {:02}:{:02}", minutes / 60 % 24, minutes % 60)
    } else {
        format!("{y:04}-{m:02}-{d:02}")
    }
}

/// The year, month and day of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The day counted from 1970-01-01 of a year, month and day.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_round_trip() {
        let at = |s: u64| utc_date(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century leap year), 12:34:56.
        assert_eq!(at(951_827_696), "2000-02-29T12:34:56Z");
        assert_eq!(at(1_795_458_007), "2026-11-23T18:20:07Z");
        for s in [0, 951_827_696, 1_795_458_007, 4_102_444_800] {
            let days = date_days(&at(s)).unwrap();
            assert!((days * 86_400.0 - s as f64).abs() < 1e-3, "{s}");
        }
        assert_eq!(date_days("2026-11-23"), Some(20_780.0));
        assert_eq!(date_days("yesterday"), None);
        assert_eq!(day_label(20_780.5, false), "2026-11-23");
        assert_eq!(day_label(20_780.5, true), "11-23 12:00");
        assert_eq!(date_days("2026-13-01T00:00:00Z"), None);
    }
}
