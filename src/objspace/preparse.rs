//! Bundled models parsed ahead of need on a second thread, for a command-line `check`: the
//! RTyper that `check` runs after a clean annotation imports the low-level helper modules
//! (`__rpy_ll__`, about 100 KB with the models they import) only at the end, while the
//! analysing thread is busy with the program; parsing them meanwhile on the other core took
//! a twentieth of the wall time off a check of a 10,000-line program.
//!
//! Parsing is a pure function of the text, and a parsed module's nodes hold byte offsets
//! only (the file id is a field of [`ParsedModule`], set when the module is taken), so a
//! module parsed here is the one the loader would have parsed. The loader asks with
//! [`take`]: a module not started yet is left to the loader (and skipped here), one being
//! parsed is waited for. Nothing is parsed ahead unless [`start`] was called (the language
//! server does not: it keeps compiled modules from one analysis to the next instead).

use super::bundled::{self, BundledModule};
use crate::syntax::{FileId, ParsedModule, SyntaxError};
use std::sync::{Condvar, Mutex};

enum Slot {
    /// Neither thread has started it.
    Waiting,
    /// The parsing thread is on it.
    Parsing,
    Done(Result<ParsedModule, SyntaxError>),
    /// Taken, or left to the loader.
    Gone,
}

struct Store {
    slots: Mutex<Vec<(&'static BundledModule, Slot)>>,
    done: Condvar,
}

static STORE: Store = Store::new();

/// The modules parsed ahead, in order: the models the low-level helpers import (which most
/// programs import early themselves), then the helpers the RTyper imports.
const AHEAD: &[&str] = &[
    "rpython.rlib.objectmodel",
    "rpython.rlib.rarithmetic",
    "rpython.rtyper.lltypesystem.lltype",
    "rpython.rlib.unroll",
    "rpython.rlib.rgc",
    "__rpy_ll__.ll_str",
    "__rpy_ll__.ll_list",
    "__rpy_ll__.ll_dict",
    "__rpy_ll__.ll_iter",
    "__rpy_ll__.ll_num",
    "__rpy_ll__.ll_repr",
    "__rpy_ll__.ll_codec",
    "__rpy_ll__.ll_os",
    "__rpy_ll__.ll_bytearray",
    "__rpy_ll__.ll_weakref",
    "__rpy_ll__.ll_class",
    "rpython.rtyper.annlowlevel",
];

/// Starts parsing [`AHEAD`] on a new thread (once per process; nothing if no thread can be
/// started).
pub fn start() {
    STORE.start(AHEAD);
}

/// The parse of the bundled module at `path` (under `<bundled>/`) with text `text`, as file
/// `file`, when it was parsed ahead (waiting for it if it is being parsed); `None` when
/// the caller has to parse it.
pub fn take(path: &str, text: &str, file: FileId) -> Option<Result<ParsedModule, SyntaxError>> {
    STORE.take(path, text, file)
}

impl Store {
    const fn new() -> Store {
        Store {
            slots: Mutex::new(Vec::new()),
            done: Condvar::new(),
        }
    }

    fn start(&'static self, names: &[&str]) {
        {
            let Ok(mut slots) = self.slots.lock() else {
                return;
            };
            if !slots.is_empty() {
                return;
            }
            slots.extend(
                names
                    .iter()
                    .filter_map(|n| bundled::lookup(n))
                    .map(|m| (m, Slot::Waiting)),
            );
        }
        let spawned = std::thread::Builder::new()
            .name("rpy-lsp-preparse".into())
            .spawn(|| self.run());
        if spawned.is_err() {
            if let Ok(mut slots) = self.slots.lock() {
                slots.iter_mut().for_each(|(_, s)| *s = Slot::Gone);
            }
        }
    }

    fn run(&self) {
        for i in 0.. {
            let module = {
                let Ok(mut slots) = self.slots.lock() else {
                    return;
                };
                let Some((m, slot)) = slots.get_mut(i) else {
                    return;
                };
                if !matches!(slot, Slot::Waiting) {
                    continue;
                }
                *slot = Slot::Parsing;
                *m
            };
            // A panic leaves the module to the loader (which must not wait for it forever).
            let parsed = std::panic::catch_unwind(|| {
                crate::syntax::parse_module(FileId::default(), module.source)
            });
            let Ok(mut slots) = self.slots.lock() else {
                return;
            };
            slots[i].1 = match parsed {
                Ok(r) => Slot::Done(r),
                Err(_) => Slot::Gone,
            };
            self.done.notify_all();
        }
    }

    fn take(
        &self,
        path: &str,
        text: &str,
        file: FileId,
    ) -> Option<Result<ParsedModule, SyntaxError>> {
        let mut slots = self.slots.lock().ok()?;
        let i = slots
            .iter()
            .position(|(m, _)| m.path == path && m.source == text)?;
        loop {
            match std::mem::replace(&mut slots[i].1, Slot::Gone) {
                Slot::Done(r) => {
                    return Some(
                        r.map(|mut p| {
                            p.file = file;
                            p
                        })
                        .map_err(|mut e| {
                            e.span.file = file;
                            e
                        }),
                    )
                }
                Slot::Parsing => {
                    slots[i].1 = Slot::Parsing;
                    slots = self.done.wait(slots).ok()?;
                }
                Slot::Waiting | Slot::Gone => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_parsed_ahead_is_the_one_the_loader_parses() {
        static AHEAD_TEST: Store = Store::new();
        AHEAD_TEST.start(AHEAD);
        // (a module asked for before the thread reached it is left to the loader: wait)
        let all_done = || {
            let slots = AHEAD_TEST.slots.lock().unwrap();
            slots.iter().all(|(_, s)| matches!(s, Slot::Done(_)))
        };
        for _ in 0..6000 {
            if all_done() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(all_done(), "the parsing thread did not finish");
        let file = FileId(7);
        for name in AHEAD {
            let m = bundled::lookup(name).expect("a bundled module");
            let ahead = AHEAD_TEST.take(m.path, m.source, file);
            let parsed = ahead.expect("parsed ahead");
            assert_eq!(
                parsed,
                crate::syntax::parse_module(file, m.source),
                "{name}"
            );
            // taken once only
            assert!(AHEAD_TEST.take(m.path, m.source, file).is_none());
        }
        assert!(AHEAD_TEST.take("no/such.py", "", file).is_none());
    }

    #[test]
    fn a_module_the_loader_parses_first_is_left_to_it() {
        static LEFT: Store = Store::new();
        // slots without a thread: the loader asks before any parsing started
        LEFT.slots.lock().unwrap().extend(
            AHEAD
                .iter()
                .filter_map(|n| bundled::lookup(n))
                .map(|m| (m, Slot::Waiting)),
        );
        let m = bundled::lookup(AHEAD[0]).expect("bundled");
        assert!(LEFT.take(m.path, m.source, FileId(1)).is_none());
        LEFT.run();
        // skipped by the parsing thread, the others parsed
        assert!(LEFT.take(m.path, m.source, FileId(1)).is_none());
        let other = bundled::lookup(AHEAD[1]).expect("bundled");
        assert!(LEFT.take(other.path, other.source, FileId(1)).is_some());
    }
}
