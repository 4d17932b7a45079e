//! The engine thread. An [`engine::Analysis`] is not `Send` (the object space shares interned
//! strings through `Rc`), so one dedicated thread owns the latest analysis: it runs the
//! whole-program analyses and every query on them. The async side talks to it through a
//! queue with one analysis slot (a newer request replaces a waiting one: superseded work is
//! never started) and a FIFO of queries, which go before a waiting analysis.

use super::cache::Cache;
use super::settings::Settings;
use crate::engine::{self, Analysis};
use crate::fasthash::HashMap;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use tokio::sync::oneshot;
use tower_lsp_server::ls_types::Uri;

/// One finished analysis and the inputs it saw. Lives on the engine thread only.
pub struct Snapshot {
    pub analysis: Analysis,
    /// Version of each open document it analysed.
    pub versions: HashMap<PathBuf, i32>,
    /// URI of each open document (clients want their own spelling back).
    pub uris: HashMap<PathBuf, Uri>,
    pub cache: Arc<Cache>,
}

/// What an analysis needs; everything the async side snapshots from its inputs.
pub struct AnalysisInput {
    pub root: PathBuf,
    pub settings: Settings,
    pub overlays: HashMap<PathBuf, String>,
    pub versions: HashMap<PathBuf, i32>,
    pub uris: HashMap<PathBuf, Uri>,
}

/// Produced on the engine thread from a fresh snapshot (for example the diagnostics to
/// publish), sent back to the async side.
pub type AfterAnalysis<T> = Box<dyn FnOnce(&Snapshot) -> T + Send>;

type Query = Box<dyn FnOnce(Option<&Snapshot>) + Send>;
type OnAnalysed = Box<dyn FnOnce(Result<&Snapshot, String>) + Send>;

struct AnalyzeJob {
    input: AnalysisInput,
    run: OnAnalysed,
}

#[derive(Default)]
struct Queue {
    analyze: Option<AnalyzeJob>,
    queries: VecDeque<Query>,
}

pub struct Worker {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Worker {
    /// Starts the engine thread.
    pub fn start(cache: Arc<Cache>) -> std::io::Result<Arc<Worker>> {
        let worker = Arc::new(Worker {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        let w = worker.clone();
        std::thread::Builder::new()
            .name("rpy-lsp-engine".into())
            .stack_size(engine::ANALYSIS_STACK_BYTES)
            .spawn(move || w.run(cache))?;
        Ok(worker)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Analyses `input` (replacing a request that has not started), then runs `after` on the
    /// new snapshot. Resolves to `Err` when the analysis panicked or was superseded before it
    /// started.
    pub async fn analyze<T: Send + 'static>(
        &self,
        input: AnalysisInput,
        after: AfterAnalysis<T>,
    ) -> Result<T, String> {
        let (tx, rx) = oneshot::channel();
        let run: OnAnalysed = Box::new(move |snap: Result<&Snapshot, String>| {
            let out = snap.and_then(|s| {
                catch_unwind(AssertUnwindSafe(|| after(s))).map_err(|p| panic_message(&*p))
            });
            let _ = tx.send(out);
        });
        {
            let mut q = self.lock();
            q.analyze = Some(AnalyzeJob { input, run });
        }
        self.ready.notify_one();
        rx.await.unwrap_or_else(|_| Err("superseded".to_string()))
    }

    /// Runs `f` on the current snapshot (`None` before the first analysis). An engine panic
    /// becomes `None`.
    pub async fn query<T, F>(&self, f: F) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce(Option<&Snapshot>) -> Option<T> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job: Query = Box::new(move |snap| {
            let out = catch_unwind(AssertUnwindSafe(|| f(snap))).ok().flatten();
            let _ = tx.send(out);
        });
        self.lock().queries.push_back(job);
        self.ready.notify_one();
        rx.await.ok().flatten()
    }

    fn run(&self, cache: Arc<Cache>) {
        // Files an edit did not change are not parsed and compiled again.
        crate::compiler::cache::enable();
        // Nor are the functions whose flow graphs they cannot change flowed again.
        engine::flowcache::enable();
        engine::importcache::enable();
        crate::sandbox::keep_freed_memory();
        let mut current: Option<Snapshot> = None;
        let mut retiring: Option<Retiring> = None;
        loop {
            let mut q = self.lock();
            while q.queries.is_empty() && q.analyze.is_none() && retiring.is_none() {
                q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
            if let Some(query) = q.queries.pop_front() {
                drop(q);
                query(current.as_ref());
                continue;
            }
            if q.analyze.is_none() {
                // Idle: free a step of the previous analysis, then look at the queue again.
                drop(q);
                if let Some(r) = retiring.as_mut() {
                    if !r.step() {
                        retiring = None;
                    }
                }
                continue;
            }
            let Some(job) = q.analyze.take() else {
                continue;
            };
            drop(q);
            // What is left of the analysis before the previous one goes before a new one.
            retiring = None;
            let AnalysisInput {
                root,
                settings,
                overlays,
                versions,
                uris,
            } = job.input;
            crate::compiler::cache::new_generation();
            engine::flowcache::new_generation();
            engine::importcache::new_generation();
            let tracing = std::env::var_os("RPY_LSP_TRACE").is_some();
            if tracing {
                engine::trace::start();
            }
            let analysis = catch_unwind(AssertUnwindSafe(|| {
                let config = settings.engine_config(&root);
                engine::analyze_after(
                    &config,
                    &overlays,
                    current.as_mut().map(|s| &mut s.analysis),
                )
            }));
            match analysis {
                Ok(analysis) => {
                    // The old analysis is freed after the new one's diagnostics are sent,
                    // in steps between queries: freeing a large program takes a tenth of
                    // analysing it, and neither an edit nor a hover should wait for it.
                    let old = current.take();
                    let snap = current.insert(Snapshot {
                        analysis,
                        versions,
                        uris,
                        cache: cache.clone(),
                    });
                    engine::trace::stage("publish", || (job.run)(Ok(snap)));
                    retiring = old.map(Retiring::new);
                    if tracing {
                        eprintln!("rpy-lsp: analysis stages: {}", engine::trace::take());
                    }
                }
                Err(p) => (job.run)(Err(panic_message(&*p))),
            }
        }
    }
}

/// A previous analysis being freed in steps (each a bounded amount of work) while the
/// engine thread is idle.
struct Retiring {
    snapshot: Snapshot,
}

/// Graphs, binding tables or heap objects freed per step.
const RETIRE_STEP: usize = 2000;

impl Retiring {
    fn new(snapshot: Snapshot) -> Retiring {
        Retiring { snapshot }
    }

    /// Frees one step; false when nothing large is left (the rest is freed with `self`).
    fn step(&mut self) -> bool {
        fn shrink<T>(v: &mut Vec<T>) -> bool {
            if v.is_empty() {
                return false;
            }
            v.truncate(v.len().saturating_sub(RETIRE_STEP));
            true
        }
        for p in self.snapshot.analysis.programs.iter_mut().rev() {
            if let Some(a) = p.annotated.as_mut() {
                if shrink(&mut a.bindings) || shrink(&mut a.graphs) {
                    return true;
                }
            }
            if shrink(&mut p.graphs) {
                return true;
            }
            let heap = &mut p.space.heap;
            if !heap.is_empty() {
                heap.truncate(heap.len().saturating_sub(RETIRE_STEP * 4));
                return true;
            }
        }
        false
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "the engine panicked".to_string()
    }
}
