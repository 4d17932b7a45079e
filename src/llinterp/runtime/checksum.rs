//! zlib's checksums, as `crc32(crc, buf, len)` and `adler32(adler, buf, len)` compute them
//! (the running value continues a previous call's), for programs that declare them with
//! `rffi.llexternal` and link zlib: `run` gives the values the library gives `build`.

/// CRC-32 (the reflected polynomial 0xEDB88320, zlib's and PNG's), continuing `crc`.
pub fn crc32(crc: u32, data: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in data {
        c ^= b as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// Adler-32 (sums modulo 65521), continuing `adler` (1 to start).
pub fn adler32(adler: u32, data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    let (mut a, mut b) = (adler & 0xffff, adler >> 16);
    for &x in data {
        a = (a + x as u32) % MOD;
        b = (b + a) % MOD;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // the check values of the two algorithms' definitions (RFC 1950, ISO 3309)
        assert_eq!(crc32(0, b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(1, b"Wikipedia"), 0x11E6_0398);
        assert_eq!(crc32(0, b""), 0);
        assert_eq!(adler32(1, b""), 1);
        let whole = crc32(0, b"hello world");
        assert_eq!(crc32(crc32(0, b"hello "), b"world"), whole);
    }
}
