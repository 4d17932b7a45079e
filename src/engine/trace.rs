//! Stage timings of one analysis, for profiling the language server's edit latency
//! (`RPY_LSP_TRACE=1 rpy-lsp serve` prints them on stderr). Takes closures named by stage;
//! gives their results, and records how long each took when the thread asked for it. Off by
//! default: then a stage costs one thread-local read.

use std::cell::RefCell;
use std::time::{Duration, Instant};

thread_local! {
    static TIMES: RefCell<Option<Vec<(&'static str, Duration)>>> = const { RefCell::new(None) };
}

/// Starts recording on this thread (forgetting what was recorded before).
pub fn start() {
    TIMES.with(|t| *t.borrow_mut() = Some(Vec::new()));
}

/// Runs `f`, adding its time to `stage` when recording.
pub fn stage<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if TIMES.with(|t| t.borrow().is_none()) {
        return f();
    }
    let started = Instant::now();
    let out = f();
    let took = started.elapsed();
    TIMES.with(|t| {
        if let Some(times) = t.borrow_mut().as_mut() {
            match times.iter_mut().find(|(n, _)| *n == name) {
                Some((_, d)) => *d += took,
                None => times.push((name, took)),
            }
        }
    });
    out
}

/// What was recorded since `start`, one `stage ms` pair per stage in first-run order, and
/// stops recording.
pub fn take() -> String {
    let times = TIMES.with(|t| t.borrow_mut().take()).unwrap_or_default();
    times
        .iter()
        .map(|(n, d)| format!("{n} {:.1} ms", d.as_secs_f64() * 1000.0))
        .collect::<Vec<_>>()
        .join(", ")
}
