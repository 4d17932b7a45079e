//! The program's modules parsed ahead of need on a second thread, for a command-line
//! `check` of one file: while the analysing thread compiles and runs a module's body, this
//! thread parses the modules its `import` statements name (found next to the importing
//! file and in the search roots, as Python 2 looks for them), then theirs. Parsing the
//! program's files was a sixth of a `check` of a 10,000-line program; on a machine with two
//! cores it now mostly happens on the other one.
//!
//! Parsing is a pure function of the text, and a parsed module's nodes hold byte offsets
//! only (the file id is a field of [`ParsedModule`], set when the module is taken), so the
//! loader, asking with the text it read itself ([`take`]), gets exactly what it would have
//! parsed: a text this thread has not started is parsed by the loader (and then skipped
//! here), one being parsed is waited for. Which files are guessed only changes what the
//! other core does. Nothing is
//! parsed ahead unless [`start`] was called (the language server does not: it keeps
//! compiled modules from one analysis to the next instead).

use crate::compiler::serial::text_hash;
use crate::fasthash::HashSet;
use crate::syntax::{ast, FileId, ParsedModule, SyntaxError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

enum Slot {
    /// The parsing thread is on it.
    Parsing,
    Done(Result<ParsedModule, SyntaxError>),
    /// Taken (or the parser failed).
    Gone,
}

struct Parsed {
    hash: u64,
    text: Arc<str>,
    slot: Slot,
}

struct Store {
    parsed: Mutex<Vec<Parsed>>,
    done: Condvar,
    started: AtomicBool,
}

static STORE: Store = Store::new();

/// At most this many files are parsed ahead (a guess that wanders off reads no further).
const MAX_FILES: usize = 2000;

/// Starts parsing, on a new thread, the file `entry` and what it imports, looked for next
/// to each importing file and in `roots` (once per process; nothing if no thread can be
/// started). Only files `policy` lets the program read are read.
pub fn start(entry: &Path, roots: Vec<PathBuf>, policy: crate::sandbox::Policy) {
    STORE.start(entry.to_path_buf(), roots, policy);
}

/// The parse of `text` as file `file`, when it was parsed ahead (waiting for it if it is
/// being parsed); `None` when the caller has to parse it.
pub fn take(text: &str, file: FileId) -> Option<Result<ParsedModule, SyntaxError>> {
    STORE.take(text, file)
}

impl Store {
    const fn new() -> Store {
        Store {
            parsed: Mutex::new(Vec::new()),
            done: Condvar::new(),
            started: AtomicBool::new(false),
        }
    }

    fn start(&'static self, entry: PathBuf, roots: Vec<PathBuf>, policy: crate::sandbox::Policy) {
        if self.started.swap(true, Ordering::SeqCst) {
            return;
        }
        // The parser's recursions on adversarial input need the analysing thread's stack.
        let spawned = std::thread::Builder::new()
            .name("rpy-lsp-preparse".into())
            .stack_size(crate::engine::ANALYSIS_STACK_BYTES)
            .spawn(move || self.run(entry, &roots, &policy));
        if spawned.is_err() {
            self.started.store(false, Ordering::SeqCst);
        }
    }

    fn run(&self, entry: PathBuf, roots: &[PathBuf], policy: &crate::sandbox::Policy) {
        // depth first, each file's imports in source order: the order the loader runs them
        let mut stack = vec![entry.clone()];
        let mut seen: HashSet<PathBuf> = HashSet::default();
        seen.insert(entry);
        let mut files = 0;
        while let Some(path) = stack.pop() {
            if files == MAX_FILES {
                return;
            }
            if !policy.may_read(&path) {
                continue;
            }
            let Ok(text) = crate::sandbox::read_source(&path) else {
                continue;
            };
            files += 1;
            let text: Arc<str> = Arc::from(text);
            let hash = text_hash(&text);
            let index = {
                let Ok(mut parsed) = self.parsed.lock() else {
                    return;
                };
                if parsed.iter().any(|p| p.hash == hash && p.text == text) {
                    continue;
                }
                parsed.push(Parsed {
                    hash,
                    text: text.clone(),
                    slot: Slot::Parsing,
                });
                parsed.len() - 1
            };
            // A panic leaves the module to the loader (which must not wait for it forever).
            let result =
                std::panic::catch_unwind(|| crate::syntax::parse_module(FileId::default(), &text));
            let mut imports = Vec::new();
            if let Ok(Ok(m)) = &result {
                imports_of(&m.body, &mut imports);
            }
            {
                let Ok(mut parsed) = self.parsed.lock() else {
                    return;
                };
                parsed[index].slot = match result {
                    Ok(r) => Slot::Done(r),
                    Err(_) => Slot::Gone,
                };
                self.done.notify_all();
            }
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let mut next = Vec::new();
            for import in imports {
                for candidate in candidates(&dir, roots, &import) {
                    if seen.insert(candidate.clone()) {
                        next.push(candidate);
                    }
                }
            }
            stack.extend(next.into_iter().rev());
        }
    }

    fn take(&self, text: &str, file: FileId) -> Option<Result<ParsedModule, SyntaxError>> {
        if !self.started.load(Ordering::SeqCst) {
            return None;
        }
        let hash = text_hash(text);
        let mut parsed = self.parsed.lock().ok()?;
        loop {
            let Some(i) = parsed
                .iter()
                .position(|p| p.hash == hash && &*p.text == text)
            else {
                // parsed here: not to be parsed there any more
                parsed.push(Parsed {
                    hash,
                    text: Arc::from(text),
                    slot: Slot::Gone,
                });
                return None;
            };
            match std::mem::replace(&mut parsed[i].slot, Slot::Gone) {
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
                    parsed[i].slot = Slot::Parsing;
                    parsed = self.done.wait(parsed).ok()?;
                }
                Slot::Gone => return None,
            }
        }
    }
}

/// One import statement: its level (0 for a plain `import`, as for Python 2's implicit
/// relative imports), the dotted module name, and the names a `from` imports.
struct Import {
    level: u32,
    module: String,
    names: Vec<String>,
}

/// The import statements of `body`, nested ones included (a function's imports run when
/// it is flowed), in source order.
fn imports_of(body: &[ast::Stmt], out: &mut Vec<Import>) {
    use ast::Stmt;
    for s in body {
        match s {
            Stmt::Import(i) => out.extend(i.names.iter().map(|a| Import {
                level: 0,
                module: a.name.to_string(),
                names: Vec::new(),
            })),
            Stmt::ImportFrom(i) => out.push(Import {
                level: i.level.map_or(0, |l| l.to_u32()),
                module: i.module.as_deref().unwrap_or("").to_string(),
                names: i.names.iter().map(|a| a.name.to_string()).collect(),
            }),
            Stmt::FunctionDef(f) => imports_of(&f.body, out),
            Stmt::ClassDef(c) => imports_of(&c.body, out),
            Stmt::For(f) => {
                imports_of(&f.body, out);
                imports_of(&f.orelse, out);
            }
            Stmt::While(w) => {
                imports_of(&w.body, out);
                imports_of(&w.orelse, out);
            }
            Stmt::If(i) => {
                imports_of(&i.body, out);
                imports_of(&i.orelse, out);
            }
            Stmt::With(w) => imports_of(&w.body, out),
            Stmt::Try(t) => {
                imports_of(&t.body, out);
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    imports_of(&h.body, out);
                }
                imports_of(&t.orelse, out);
                imports_of(&t.finalbody, out);
            }
            _ => {}
        }
    }
}

/// The files an import may load, found from the importing file's directory `dir` (its
/// package, for a relative import) and the roots: every package on the dotted path, the
/// module, and the submodules a `from` may name.
fn candidates(dir: &Path, roots: &[PathBuf], import: &Import) -> Vec<PathBuf> {
    let mut bases: Vec<PathBuf> = Vec::new();
    if import.level > 0 {
        let mut d = dir.to_path_buf();
        for _ in 1..import.level {
            d = d.parent().map(Path::to_path_buf).unwrap_or_default();
        }
        bases.push(d);
    } else {
        bases.push(dir.to_path_buf());
        bases.extend(roots.iter().cloned());
    }
    let parts: Vec<&str> = import.module.split('.').filter(|p| !p.is_empty()).collect();
    let mut out = Vec::new();
    for base in bases {
        let mut d = base;
        let mut found = true;
        for (i, part) in parts.iter().enumerate() {
            let pkg = d.join(part);
            let init = pkg.join("__init__.py");
            if init.is_file() {
                out.push(init);
                d = pkg;
            } else {
                let file = d.join(format!("{part}.py"));
                if i + 1 == parts.len() && file.is_file() {
                    out.push(file);
                }
                found = false;
                break;
            }
        }
        if found {
            // a package (or the importer's own package): its submodules a `from` names
            for name in &import.names {
                let file = d.join(format!("{name}.py"));
                if file.is_file() {
                    out.push(file);
                } else if d.join(name).join("__init__.py").is_file() {
                    out.push(d.join(name).join("__init__.py"));
                }
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_parsed_ahead_is_the_one_the_loader_parses() {
        let dir = std::env::temp_dir().join(format!("rpy-preparse-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("main.py"), "import pkg.a\nfrom pkg import b\n").unwrap();
        std::fs::write(dir.join("pkg/__init__.py"), "").unwrap();
        std::fs::write(dir.join("pkg/a.py"), "def f():\n    from . import c\n").unwrap();
        std::fs::write(dir.join("pkg/b.py"), "x = 1\n").unwrap();
        std::fs::write(dir.join("pkg/c.py"), "y = (\n").unwrap();
        static AHEAD: Store = Store::new();
        AHEAD.started.store(true, Ordering::SeqCst);
        let policy = crate::sandbox::Policy::unrestricted();
        AHEAD.run(dir.join("main.py"), &[], &policy);
        for name in [
            "main.py",
            "pkg/__init__.py",
            "pkg/a.py",
            "pkg/b.py",
            "pkg/c.py",
        ] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let ahead = AHEAD.take(&text, FileId(7)).expect(name);
            assert_eq!(
                ahead,
                crate::syntax::parse_module(FileId(7), &text),
                "{name}"
            );
            // taken once only
            assert!(AHEAD.take(&text, FileId(7)).is_none());
        }
        assert!(AHEAD.take("z = 2\n", FileId(7)).is_none());
        std::fs::remove_dir_all(&dir).ok();
    }
}
