//! Where rpy-lsp keeps files between runs (the language server's pages for clients, the
//! compiled C runtime of `build`): `$RPY_LSP_CACHE_DIR`, else `$XDG_CACHE_HOME/rpy-lsp`,
//! else `~/.cache/rpy-lsp`, else a directory in the temporary directory. Everything kept
//! there can be deleted at any time; it is made again when needed.

use std::path::PathBuf;

/// The cache directory's base (not created here).
pub fn base() -> PathBuf {
    std::env::var_os("RPY_LSP_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("rpy-lsp")))
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("rpy-lsp"))
        })
        .unwrap_or_else(|| std::env::temp_dir().join("rpy-lsp"))
}
