//! What `from M import X` finds in rpython 0.2.1 for each `rpython.*` module rpy-lsp
//! models: the names of the real module (its attributes after import, and for a package
//! its submodules). A name the model lacks is unknown when the real module has it (the
//! model is incomplete there), but an ImportError at import time when the real module
//! lacks it too (`from rpython.rlib.rarithmetic import r_uint128`, a name of later
//! versions): the reference raises it, and an `except ImportError:` fallback is taken.
//!
//! `bundled/rpython_021_names.tsv` is one line per module, `module<TAB>name name...`,
//! made by `fixtures/make-rpython-names.sh` from the installed reference.

use crate::fasthash::HashMap;
use std::sync::OnceLock;

static TABLE: &str = include_str!("bundled/rpython_021_names.tsv");

/// Each module's line of names, split from the table once: a lookup reads one module's
/// names (a program makes few such imports, so no name is hashed up front).
fn table() -> &'static HashMap<&'static str, &'static str> {
    static PARSED: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    PARSED.get_or_init(|| {
        TABLE
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .collect()
    })
}

/// Whether rpython 0.2.1's module `module` is known to lack `name` (`None`: rpy-lsp has no
/// list of that module's names, so nothing is known).
pub fn lacks(module: &str, name: &str) -> Option<bool> {
    table()
        .get(module)
        .map(|names| !names.split(' ').any(|n| n == name))
}

#[cfg(test)]
mod tests {
    use super::lacks;

    #[test]
    fn real_names_of_modelled_modules() {
        assert_eq!(lacks("rpython.rlib.rarithmetic", "r_uint"), Some(false));
        assert_eq!(lacks("rpython.rlib.rarithmetic", "r_uint128"), Some(true));
        // a submodule of a package counts, imported or not
        assert_eq!(lacks("rpython.rlib", "rarithmetic"), Some(false));
        assert_eq!(lacks("rpython.rlib", "rsre"), Some(false));
        assert_eq!(lacks("some.other.module", "x"), None);
    }
}
