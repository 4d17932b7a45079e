//! What import-time evaluation asks of the files around it, and checkpoints of it for a
//! long-lived thread (the language server's: `engine::importcache`).
//!
//! Import-time evaluation is a function of the loader's configuration and of the answers to
//! the questions the loader asks the file system: is this a module file, what is this
//! source's text, is this `sys.path` entry a directory. Every other way out of the model
//! (files opened or listed by the program, the real clock) marks the space as having read
//! the world (`ObjSpace::world_read`). Takes the loader's questions; gives their answers,
//! recorded in order when the space records (`ObjSpace::probes`), and answers them again for
//! another configuration (`first_changed`): when the first `n` answers are the same, a new
//! evaluation under that configuration runs exactly as the recorded one until it asks its
//! `n+1`-th question.
//!
//! A checkpoint is the whole space and the main module's frame just before a top-level
//! `import` of the main module's body (the only Rust frames then are the loader's, which
//! `ObjSpace::resume_main` stands in for). A later evaluation whose answers agree up to the
//! checkpoint's count can start from a copy of it instead of from the beginning.

use super::loader::LoaderConfig;
use super::object::{ObjId, Value};
use super::ObjSpace;
use crate::compiler::Instr;
use crate::interpreter::Frame;
use crate::sandbox::ReadError;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A question the loader asks the file system.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Is `path` a module file (an editor buffer or a regular file)?
    IsFile(PathBuf),
    /// The text of a module source, readable when the policy allows it or when it is under
    /// one of `roots` (the search roots when it was asked).
    Source { path: PathBuf, roots: Vec<PathBuf> },
    /// The target file's text (readable as a module source is).
    Main { path: PathBuf, roots: Vec<PathBuf> },
    /// Is a `sys.path` entry a directory the policy lets the program read?
    Dir(PathBuf),
}

/// The file system's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Bool(bool),
    Text(Option<Rc<str>>),
    Main(Result<Rc<str>, ReadError>),
}

/// One question with its answer.
#[derive(Clone, Debug)]
pub struct Probe {
    question: Question,
    answer: Answer,
}

/// Answers `q` under `config`: the loader's one way of looking at files.
pub fn answer(config: &LoaderConfig, q: &Question) -> Answer {
    match q {
        Question::IsFile(p) => Answer::Bool(config.overlays.contains_key(p) || p.is_file()),
        Question::Source { path, roots } => {
            let text = match config.overlays.get(path) {
                Some(t) => Some(Rc::from(t.as_str())),
                // A module file may be a link to anything (`/proc/self/environ`): only what
                // the policy lets import-time code read is a module source.
                None if may_load(config, roots, path) => {
                    crate::sandbox::read_source(path).ok().map(Rc::from)
                }
                None => None,
            };
            Answer::Text(text)
        }
        Question::Main { path, roots } => Answer::Main(match config.overlays.get(path) {
            Some(t) => Ok(Rc::from(t.as_str())),
            None if path.exists() && !may_load(config, roots, path) => Err(ReadError::Denied),
            None => crate::sandbox::read_source(path).map(Rc::from),
        }),
        Question::Dir(p) => Answer::Bool(p.is_dir() && config.policy.may_read(p)),
    }
}

/// Whether a module source may be read: links resolved, it is inside one of `roots` or
/// what the policy lets import-time code read.
fn may_load(config: &LoaderConfig, roots: &[PathBuf], p: &Path) -> bool {
    if config.policy.may_read(p) {
        return true;
    }
    let Ok(real) = p.canonicalize() else {
        return false;
    };
    roots
        .iter()
        .any(|r| r.canonicalize().is_ok_and(|r| real.starts_with(r)))
}

/// The index of the first of `probes` that `config` answers differently (`probes.len()`
/// when none does). Stops there: the questions after it may not be asked again.
pub fn first_changed(config: &LoaderConfig, probes: &[Probe]) -> usize {
    probes
        .iter()
        .position(|p| answer(config, &p.question) != p.answer)
        .unwrap_or(probes.len())
}

/// The main module being imported (what the loader does after its body, for a resumed
/// evaluation).
#[derive(Clone, Debug)]
pub(crate) struct MainImport {
    pub module: ObjId,
    pub stem: String,
    pub path: PathBuf,
    /// The space's diagnostics before the main module was imported.
    pub diagnostics_before: usize,
}

/// The space and the main module's frame before one of its top-level imports.
#[derive(Clone)]
pub struct Checkpoint {
    pub(crate) space: Box<ObjSpace>,
    pub(crate) frame: Frame<Value>,
    pub(crate) main: MainImport,
    /// CPU time and bytes import-time evaluation had used (its limits go on counting).
    pub(crate) cpu: std::time::Duration,
    pub(crate) bytes: i64,
    /// Which top-level import of the main module it is before (0: the first).
    pub boundary: usize,
    /// How many questions had been answered.
    pub probes: usize,
}

impl ObjSpace {
    /// Asks the file system `q`, recording it when the space records.
    pub(crate) fn ask(&mut self, q: Question) -> Answer {
        let a = answer(&self.config, &q);
        if let Some(probes) = self.probes.as_mut() {
            probes.push(Probe {
                question: q,
                answer: a.clone(),
            });
        }
        a
    }

    /// Called before each instruction of the main module's body (depth 1): at a top-level
    /// import, notes how many questions were answered before it and takes the checkpoint
    /// asked for (`checkpoint_at`). Nothing after a read of the world is a checkpoint.
    pub(crate) fn at_top_level(&mut self, frame: &Frame<Value>) {
        if self.world_read
            || !matches!(
                frame.code.co_code.get(frame.state.pc as usize),
                Some(Instr::ImportName(_))
            )
        {
            return;
        }
        let (Some(probes), Some(main)) = (self.probes.as_ref(), self.main_import.as_ref()) else {
            return;
        };
        let (count, main) = (probes.len(), main.clone());
        let boundary = self.boundaries.len();
        self.boundaries.push(count);
        if self.checkpoint_at != Some(boundary) {
            return;
        }
        let bytes_before = crate::sandbox::thread_bytes();
        let used = bytes_before - self.memory_base;
        let mut copy = Box::new(self.clone());
        // Resuming runs this import's instruction again, which notes this boundary again.
        copy.boundaries.pop();
        copy.checkpoint = None;
        copy.checkpoint_at = None;
        // The buffers are the next evaluation's, given when it resumes.
        copy.config.overlays = Default::default();
        let checkpoint = Checkpoint {
            space: copy,
            frame: frame.clone(),
            main,
            cpu: self.started.elapsed(),
            bytes: used,
            boundary,
            probes: count,
        };
        // The copy is not the program's memory.
        self.memory_base += crate::sandbox::thread_bytes() - bytes_before;
        self.checkpoint = Some(Box::new(checkpoint));
    }
}
