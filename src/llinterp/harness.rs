//! The test harness of the reference's `interpret()`: a program given as source text is
//! imported, the function `func` is annotated for integer arguments, RTyped and run on the
//! LLInterpreter. Used by the per-Repr unit tests.

use super::{LlInterpreter, Output, Unwind};
use crate::annotator::SomeValue;
use crate::lltypesystem::LlValue;
use crate::objspace::object::{Object, Value};

/// What a call returned: a value, or the name of the exception it raised.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    Value(LlValue),
    /// A returned string, read back from the heap.
    Str(String),
    Raised(String),
}

/// Runs `func(*args)` of `source` (a module's text), with the captured stdout.
pub fn interpret(source: &str, func: &str, args: &[i64]) -> Result<(Outcome, String), String> {
    interpret_measured(source, func, args).map(|(outcome, stdout, _)| (outcome, stdout))
}

/// What a run left in the heap: its number of container slots (live, freed or prebuilt)
/// and how many automatic collections ran.
#[derive(Debug, Clone, Copy)]
pub struct HeapUse {
    pub containers: usize,
    pub collections: u64,
}

/// [`interpret`], also saying how much heap the run used.
pub fn interpret_measured(
    source: &str,
    func: &str,
    args: &[i64],
) -> Result<(Outcome, String, HeapUse), String> {
    let dir = std::env::temp_dir().join(format!(
        "rpy-interpret-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join("prog.py");
    std::fs::write(&path, source).map_err(|e| e.to_string())?;
    let result = interpret_file(&path, func, args);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

fn interpret_file(
    path: &std::path::Path,
    func: &str,
    args: &[i64],
) -> Result<(Outcome, String, HeapUse), String> {
    let mut program = crate::engine::Program::load(path, Default::default());
    let module = program.module.ok_or("the module could not be imported")?;
    let Object::Module(m) = program.space.heap.get(module) else {
        return Err("not a module".into());
    };
    let Some(Value::Obj(f)) = m.dict.get(func) else {
        return Err(format!("no function `{}`", func));
    };
    let s_args = args
        .iter()
        .map(|&i| {
            if i >= 0 {
                SomeValue::nonneg_int()
            } else {
                SomeValue::int()
            }
        })
        .collect();
    let mut ann = crate::annotator::annotate(&mut program.space, f, s_args);
    if ann.has_errors() {
        return Err(format!(
            "{:?}",
            ann.diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        ));
    }
    let prog = crate::rtyper::rtype(&mut ann, &mut program.space)
        .map_err(|d| format!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()))?;
    let mut interp = LlInterpreter::new(
        &prog,
        Output::Capture {
            stdout: Vec::new(),
            stderr: Vec::new(),
        },
    );
    let vals: Vec<LlValue> = args.iter().map(|&i| LlValue::Int(i)).collect();
    let r = interp.call_function(prog.entry, &vals, Default::default());
    let stdout = match &interp.out {
        Output::Capture { stdout, .. } => String::from_utf8_lossy(stdout).into_owned(),
        Output::Inherit => String::new(),
    };
    let outcome = match r {
        Ok(LlValue::Ptr(p)) if interp.heap.bytes(p).is_ok() => {
            Outcome::Str(String::from_utf8_lossy(interp.heap.bytes(p).unwrap()).into_owned())
        }
        Ok(v) => Outcome::Value(v),
        Err(Unwind::Raise { etype, .. }) => Outcome::Raised(interp.class_name(etype)),
        Err(Unwind::Fatal { msg, .. }) => return Err(msg),
        Err(Unwind::Exit(status)) => return Err(format!("os._exit({status})")),
    };
    let used = HeapUse {
        containers: interp.heap.containers.len(),
        collections: interp.collections,
    };
    Ok((outcome, stdout, used))
}
