//! Metadata helpers: SHA-256 of input files, UUIDs derived from content, ISO 8601 timestamps.

use sha2::{Digest, Sha256};

/// Lower-case hexadecimal SHA-256 of `bytes` (the format's `input_file_hashes`).
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// An RFC 4122 UUID (version 4 layout) derived from `seed`: the same seed gives the same UUID,
/// different witnesses (different content or time) get different ones.
pub fn uuid_from(seed: &str) -> String {
    let digest = Sha256::digest(seed.as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// Whether `text` has the 8-4-4-4-12 hexadecimal form of a UUID.
pub fn is_uuid(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 5
        && parts
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}

/// `seconds` since the Unix epoch as ISO 8601 UTC (`2026-11-26T14:32:01Z`).
pub fn iso8601(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rem = seconds % 86_400;
    // civil_from_days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Whether `text` starts like an ISO 8601 date-time (`YYYY-MM-DDTHH:MM:SS`).
pub fn is_date_time(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(|c| c.is_ascii_digit()));
    b.len() >= 19
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && (b[10] == b'T' || b[10] == b' ')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
}

/// The current time as ISO 8601 UTC. `web_time`'s clock: `std::time::SystemTime::now` panics
/// in wasm32-unknown-unknown (the playground's worker builds witnesses too).
pub fn now() -> String {
    let secs = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    iso8601(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digests_and_dates() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_795_271_521), "2026-11-21T14:32:01Z");
        assert!(is_date_time(&iso8601(951_782_400)));
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        let u = uuid_from("x");
        assert!(is_uuid(&u), "{u}");
        assert_eq!(&u[14..15], "4");
    }
}
