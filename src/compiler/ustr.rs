//! `UStr`: the value of a Python 2 `unicode` string as its code points. A Rust `str`
//! cannot hold a lone surrogate (`u"\ud800"`), which RPython's unicode strings (UCS-4
//! arrays) can; literals, constants and the import-time object space hold this instead.

use std::fmt;
use std::rc::Rc;

/// A unicode string's code points, lone surrogates included. Ordered and hashed by code
/// point, as CPython 2 (a wide build) compares unicode strings.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UStr(Rc<[u32]>);

impl UStr {
    pub fn from_codes(codes: Vec<u32>) -> Self {
        UStr(Rc::from(codes))
    }

    /// The code points of a Rust string.
    pub fn codes(&self) -> &[u32] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn is_ascii(&self) -> bool {
        self.0.iter().all(|&c| c < 128)
    }

    /// Each code point's low byte: the bytes of a string known to be ASCII.
    pub fn ascii_bytes(&self) -> Vec<u8> {
        self.0.iter().map(|&c| c as u8).collect()
    }

    /// The string repeated `n` times.
    pub fn repeat(&self, n: usize) -> Self {
        UStr::from_codes(self.0.repeat(n))
    }

    /// Whether `needle` occurs in the string.
    pub fn contains(&self, needle: &UStr) -> bool {
        needle.is_empty() || self.0.windows(needle.len()).any(|w| w == needle.codes())
    }

    /// The concatenation of two strings.
    pub fn concat(&self, other: &UStr) -> Self {
        UStr::from_codes([self.codes(), other.codes()].concat())
    }

    /// The string as Rust text when it holds no lone surrogate.
    pub fn to_str(&self) -> Option<String> {
        self.0.iter().map(|&c| char::from_u32(c)).collect()
    }

    /// The string as Rust text, a lone surrogate as U+FFFD (for messages and names).
    pub fn to_string_lossy(&self) -> String {
        self.0
            .iter()
            .map(|&c| char::from_u32(c).unwrap_or('\u{fffd}'))
            .collect()
    }
}

impl From<&str> for UStr {
    fn from(s: &str) -> Self {
        UStr(s.chars().map(u32::from).collect())
    }
}

impl fmt::Display for UStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl fmt::Debug for UStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())
    }
}
