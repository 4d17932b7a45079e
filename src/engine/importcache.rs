//! Import-time evaluation resumed from a checkpoint, for a long-lived thread that analyses
//! the same program again and again (the language server's engine thread). Takes a target
//! and the loader's configuration; gives the object space after importing the target, as a
//! fresh `ObjSpace::import_main` would leave it, and keeps what the next import of the same
//! target may start from.
//!
//! Import-time evaluation is deterministic given the loader's configuration and the answers
//! the file system gave the loader (`objspace::probes`). So when the answers an earlier
//! import got are, up to the `n`-th, the ones the files give now, that import's state
//! before any later point it reached with fewer than `n` answers is the state a fresh import
//! would reach. The point kept is a checkpoint before one top-level import of the main
//! module; copying the whole space at every such import would cost more than it saves, so
//! one is kept, chosen from what the last edit changed: before the last top-level import
//! made before the first answer that changed (the module the user is editing, whose next
//! edit is likely there again). Edits to that module or to modules the main module imports
//! after it then import only from there on.
//!
//! Nothing is kept when import-time code read the world before (`ObjSpace::world_read`:
//! files it opened or listed, the real clock), or when the configuration (search paths,
//! policy) changed. Off unless the thread enables it, as `compiler::cache`; targets not
//! analysed in the previous generation are forgotten when the next one starts.

use crate::diagnostics::Diagnostic;
use crate::generations::Generations;
use crate::objspace::object::ObjId;
use crate::objspace::probes::{first_changed, Checkpoint, Probe};
use crate::objspace::{LoaderConfig, ObjSpace};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// What the last import of a target left for the next.
struct Entry {
    search_paths: Vec<PathBuf>,
    policy: crate::sandbox::Policy,
    /// Every question the loader asked, with its answer.
    probes: Vec<Probe>,
    /// Per top-level import of the main module, the questions answered before it.
    boundaries: Vec<usize>,
    checkpoint: Option<Box<Checkpoint>>,
}

thread_local! {
    static STORE: RefCell<Option<Generations<PathBuf, Entry>>> = const { RefCell::new(None) };
}

/// Turns the cache on for the current thread.
pub fn enable() {
    STORE.with(|s| {
        s.borrow_mut().get_or_insert_with(Default::default);
    });
}

/// Starts a new analysis: forgets the targets the previous one did not analyse.
pub fn new_generation() {
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.new_generation();
        }
    });
}

/// Imports `path` as the main module under `config`: from the kept checkpoint when it is
/// still right, from the beginning otherwise. Also says whether it resumed.
pub fn import(path: &Path, config: LoaderConfig) -> (ObjSpace, Result<ObjId, Diagnostic>, bool) {
    let enabled = STORE.with(|s| s.borrow().is_some());
    if !enabled {
        let mut space = ObjSpace::new(config);
        let r = space.import_main(path);
        return (space, r, false);
    }
    let key = path.to_path_buf();
    let old = STORE.with(|s| s.borrow_mut().as_mut().and_then(|st| st.remove(&key)));
    let old = old.filter(|e| e.search_paths == config.search_paths && e.policy == config.policy);
    // How far the last import's answers still hold, and where to keep a checkpoint: before
    // the last top-level import made within them.
    let (valid, plan) = match &old {
        Some(e) => {
            let valid = super::trace::stage("import: probes", || first_changed(&config, &e.probes));
            let plan = e.boundaries.iter().rposition(|&n| n <= valid);
            (valid, plan)
        }
        None => (0, None),
    };
    let checkpoint = old.and_then(|e| e.checkpoint).filter(|c| c.probes <= valid);
    let (search_paths, policy) = (config.search_paths.clone(), config.policy.clone());
    let (mut space, result, resumed, kept) = match checkpoint {
        Some(c) => {
            // The checkpoint stays for the next import when it is where the plan wants one.
            let (mut from, kept) = if Some(c.boundary) == plan {
                (
                    super::trace::stage("import: copy checkpoint", || (*c).clone()),
                    Some(c),
                )
            } else {
                (*c, None)
            };
            if kept.is_none() {
                from.space.checkpoint_at = plan;
            }
            let (space, r) =
                super::trace::stage("import: resume", || ObjSpace::resume_main(from, config));
            (space, r, true, kept)
        }
        None => {
            let mut space = ObjSpace::new(config);
            space.probes = Some(Vec::new());
            space.checkpoint_at = plan;
            let r = super::trace::stage("import: run", || space.import_main(path));
            (space, r, false, None)
        }
    };
    let checkpoint = kept.or_else(|| space.checkpoint.take());
    space.checkpoint_at = None;
    let entry = Entry {
        search_paths,
        policy,
        probes: space.probes.take().unwrap_or_default(),
        boundaries: std::mem::take(&mut space.boundaries),
        checkpoint,
    };
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.insert(key, entry);
        }
    });
    (space, result, resumed)
}

/// What is kept for `path`: how many top-level imports were noted, and the one the
/// checkpoint is before.
#[cfg(test)]
pub fn kept(path: &Path) -> Option<(usize, Option<usize>)> {
    STORE.with(|s| {
        let mut s = s.borrow_mut();
        let e = s.as_mut()?.get_mut(&path.to_path_buf())?;
        Some((
            e.boundaries.len(),
            e.checkpoint.as_ref().map(|c| c.boundary),
        ))
    })
}
