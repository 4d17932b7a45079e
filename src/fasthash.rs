//! The crate's hash maps and sets, keyed by FxHash (rustc's own multiplicative hasher)
//! instead of the standard library's SipHash. Their keys are ids, names and small
//! structures of the analysed program, never chosen to attack rpy-lsp's memory, and with
//! SipHash hashing was a fifth of `check`'s instructions on a 10,000-line program.

pub use rustc_hash::FxHasher;

/// The hasher of every map and set below (and of those with a key type of their own).
pub type FastBuild = std::hash::BuildHasherDefault<FxHasher>;
pub type HashMap<K, V> = std::collections::HashMap<K, V, FastBuild>;
pub type HashSet<T> = std::collections::HashSet<T, FastBuild>;
