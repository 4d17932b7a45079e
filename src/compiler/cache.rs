//! Compiled modules by content, for a long-lived thread that analyses the same files again
//! and again (the language server's engine thread). Takes a module's file id, file name and
//! text; gives back the code object and diagnostics compiled the last time it saw exactly
//! that input. Compiling is a pure function of those three (spans carry the file id), so a
//! hit is the same result without parsing or compiling.
//!
//! Off unless the thread enables it: a command-line run compiles each file once, and a test
//! thread analysing hundreds of programs should not keep them all. Entries not used during
//! the previous generation (one analysis) are dropped when the next one starts.

use super::Compiled;
use crate::generations::Generations;
use crate::syntax::FileId;
use std::cell::RefCell;

/// A compiled module by file and name, with the text it was compiled from.
type Store = Generations<(FileId, String), (String, Compiled)>;

thread_local! {
    static STORE: RefCell<Option<Store>> = const { RefCell::new(None) };
}

/// Turns the cache on for the current thread.
pub fn enable() {
    STORE.with(|s| {
        s.borrow_mut().get_or_insert_with(Store::default);
    });
}

/// Starts a new analysis: forgets what the previous one did not use.
pub fn new_generation() {
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.new_generation();
        }
    });
}

/// What compiling `text` as file `file` named `filename` gave last time.
pub fn lookup(file: FileId, filename: &str, text: &str) -> Option<Compiled> {
    STORE.with(|s| {
        let mut s = s.borrow_mut();
        let (kept, compiled) = s.as_mut()?.get_mut(&(file, filename.to_string()))?;
        (kept == text).then(|| compiled.clone())
    })
}

/// Keeps what was compiled for `file` named `filename` for the next analysis, as a lookup
/// would (an import resumed from a checkpoint compiles nothing before it, but the next
/// import may start earlier).
pub fn keep(file: FileId, filename: &str) {
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.get_mut(&(file, filename.to_string()));
        }
    });
}

/// Remembers the result of compiling `text` (when the cache is on).
pub fn store(file: FileId, filename: &str, text: &str, compiled: &Compiled) {
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.insert(
                (file, filename.to_string()),
                (text.to_string(), compiled.clone()),
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(file: FileId, text: &str) -> Compiled {
        let parsed = crate::syntax::parse_module(file, text).expect("parses");
        crate::compiler::compile_module(&parsed, "m.py", text)
    }

    #[test]
    fn hits_only_the_same_text_and_file_and_forgets_unused_entries() {
        let f = FileId(3);
        // Off by default: nothing is kept.
        store(f, "m.py", "x = 1\n", &compile(f, "x = 1\n"));
        assert!(lookup(f, "m.py", "x = 1\n").is_none());
        enable();
        let c = compile(f, "x = 1\n");
        store(f, "m.py", "x = 1\n", &c);
        let hit = lookup(f, "m.py", "x = 1\n").expect("hit");
        assert!(std::rc::Rc::ptr_eq(&hit.code, &c.code));
        assert!(lookup(f, "m.py", "x = 2\n").is_none());
        assert!(lookup(FileId(4), "m.py", "x = 1\n").is_none());
        // Used during this generation: kept by the next one; unused during it: dropped.
        new_generation();
        assert!(lookup(f, "m.py", "x = 1\n").is_some());
        new_generation();
        new_generation();
        assert!(lookup(f, "m.py", "x = 1\n").is_none());
    }
}
