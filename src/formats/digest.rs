//! FNV-1a (64-bit) over a byte stream, and the fingerprint `"hhhhhhhhhhhhhhhh LEN"` (hash in
//! 16 hex digits, a space, the byte count) that pins reports (`tests/golden/`) and names the
//! files attached to a scenario (an SWF log's `swfDigest`). Fed in any chunking, it gives the
//! same fingerprint as over the whole bytes at once.

/// A running FNV-1a 64 hash and byte count.
#[derive(Debug, Clone, Copy)]
pub struct Fnv64 {
    hash: u64,
    len: u64,
}

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64 {
            hash: 0xcbf2_9ce4_8422_2325,
            len: 0,
        }
    }
}

impl Fnv64 {
    /// Feeds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.hash;
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.hash = h;
        self.len += bytes.len() as u64;
    }

    /// Bytes fed so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was fed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `"hhhhhhhhhhhhhhhh LEN"`.
    pub fn fingerprint(&self) -> String {
        format!("{:016x} {}", self.hash, self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunking_does_not_change_the_fingerprint() {
        let text = b"; header\n1 0 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 -1 -1 -1\n";
        let mut whole = Fnv64::default();
        whole.update(text);
        for cut in 0..text.len() {
            let mut parts = Fnv64::default();
            parts.update(&text[..cut]);
            parts.update(&text[cut..]);
            assert_eq!(parts.fingerprint(), whole.fingerprint());
        }
        // the published FNV-1a 64 test vector
        let mut a = Fnv64::default();
        a.update(b"a");
        assert_eq!(a.fingerprint(), "af63dc4c8601ec8c 1");
    }
}
