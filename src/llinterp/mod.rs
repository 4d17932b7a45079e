//! The LLInterpreter (seed 000): runs the low-level graphs of an `LlProgram` over the
//! low-level heap, with RPython's semantics as the compiled binaries have them: integers
//! wrap at 64 bits, an uncaught exception prints `Fatal RPython error: Name` and exits with
//! status 134, and an operation that would be undefined in C (an index out of bounds that
//! no handler checks, a division by zero no handler catches) stops with a message naming
//! the source line. Runtime functions (`lltypesystem::runtime`) are implemented in
//! `runtime`; the primitive operations in `ops`.

mod code;
mod debuglog;
mod fds;
mod gc;
mod ops;
mod runtime;

use code::{BlockKind, Code, Switch};
use std::rc::Rc;

use crate::fasthash::HashMap;
use crate::flowspace::FunctionGraph;
use crate::lltypesystem::{LlHeap, LlPtr, LlType, LlValue};
use crate::rtyper::{LlFunction, LlProgram};
use crate::syntax::Span;
use std::io::Write;

/// Why execution left a function other than by returning.
#[derive(Debug)]
pub enum Unwind {
    /// An RPython exception: the class's vtable and the instance.
    Raise { etype: LlPtr, evalue: LlPtr },
    /// Execution cannot continue (undefined behaviour in the compiled program, or a limit
    /// of the interpreter); the message names what happened, `span` where.
    Fatal { msg: String, span: Span },
    /// `os._exit(status)`: the process ends at once, without flushing buffered streams.
    Exit(i32),
}

/// How the message of a stop for undefined behaviour starts (`LlInterpreter::undefined`);
/// the command line puts the user's line after it.
pub const UNDEFINED: &str = "undefined behaviour: ";

/// How the message of a stop for an arithmetic trap starts: an integer division by zero
/// (or of the most negative int by -1) that no handler checks is a bare C division, which
/// x86-64 traps: the compiled program dies of SIGFPE, status 136 as bash shows it, with
/// nothing on its stderr. `run` ends with that status; the command line explains the
/// stop only on a terminal, so that a captured stderr is the binary's.
pub const TRAP: &str = "arithmetic trap: ";

/// How the message of a fatal error of the compiled program starts (a failed
/// `debug_assert`): the binary writes `RPython traceback:` and `Fatal RPython error:
/// <name>` to stderr and aborts (134), as for an exception that escapes `entry_point`.
pub const FATAL: &str = "fatal RPython error: ";

/// The exit status of a program killed by SIGFPE (128 + 8).
pub const TRAP_STATUS: i32 = 136;

/// How the message of a stop for a dereference of a null pointer starts (a field read or
/// written, or an item, through None, or a call through a null vtable slot): the compiled
/// program reads, writes or jumps near address 0 and dies of SIGSEGV, status 139 as bash shows it, with nothing on its stderr. As for
/// a trap, `run` ends with that status and explains the stop only on a terminal.
pub const SEGV: &str = "segmentation fault: ";

/// The exit status of a program killed by SIGSEGV (128 + 11).
pub const SEGV_STATUS: i32 = 139;

/// Where a run's output goes.
pub enum Output {
    /// The process's own stdout and stderr.
    Inherit,
    /// Captured (tests).
    Capture { stdout: Vec<u8>, stderr: Vec<u8> },
}

/// How a run ended.
#[derive(Debug, PartialEq, Eq)]
pub struct RunResult {
    pub exit_code: i32,
    /// For a fatal stop: the message (already written to stderr) and where.
    pub fatal: Option<(String, Span)>,
}

pub struct LlInterpreter<'p> {
    pub prog: &'p LlProgram,
    pub heap: LlHeap,
    pub out: Output,
    /// The line `print` is building (RPython buffers it until the newline).
    print_buf: Vec<u8>,
    /// The program's file descriptors: the standard streams and the files it opened.
    pub(crate) fds: fds::FdTable,
    depth: usize,
    /// Flattened slot of each (pointer type, field name) already accessed.
    slot_cache: HashMap<(LlType, crate::lltypesystem::Sym), usize>,
    /// Each graph decoded for execution, the first time it is called.
    codes: Vec<Option<Rc<Code<'p>>>>,
    /// Frames of returned calls, reused (a call allocates none in a steady state).
    free_frames: Vec<Vec<LlValue>>,
    /// Number of low-level operations executed.
    pub steps: u64,
    /// The live GC pointers of the frames of the calls in progress (see `gc`).
    gc_roots: Vec<LlValue>,
    /// Whether `run` frees unreachable objects (`gc::auto_collect`; programs without weak
    /// references), and after how many more allocations it next does.
    gc_auto: bool,
    gc_next: u64,
    /// Number of automatic collections (`--timings`).
    pub collections: u64,
    start: std::time::Instant,
    /// Set in the child of an `os.fork()`.
    pub(crate) forked_child: bool,
    /// `rlib.debug`'s log (`PYPYLOG`).
    pub(crate) debug_log: debuglog::DebugLog,
    /// The program's environment once it changed it (`os.environ[k] = v`, `del`): the
    /// process's entries in their order, changed in place, a new variable last, as the C
    /// library keeps them; `None` while unchanged (the process's). The interpreter leaves
    /// rpy-lsp's own environment alone.
    pub(crate) environ: Option<Vec<(Vec<u8>, Vec<u8>)>>,
    /// zlib's compression streams of the program's `z_stream`s (`runtime::zlib`).
    pub(crate) zstreams: HashMap<LlPtr, runtime::Deflater>,
}

/// The deepest recursion the interpreter follows before stopping as a stack overflow.
const MAX_DEPTH: usize = 200_000;

impl<'p> LlInterpreter<'p> {
    pub fn new(prog: &'p LlProgram, out: Output) -> LlInterpreter<'p> {
        let mut heap = prog.heap.clone();
        heap.cache_layouts();
        heap.allocated = 0;
        LlInterpreter {
            prog,
            heap,
            out,
            print_buf: Vec::new(),
            fds: fds::FdTable::new(),
            depth: 0,
            slot_cache: HashMap::default(),
            codes: Vec::new(),
            free_frames: Vec::new(),
            steps: 0,
            gc_roots: Vec::new(),
            gc_auto: prog.weakref.is_none(),
            gc_next: gc::first_collection(),
            collections: 0,
            start: std::time::Instant::now(),
            forked_child: false,
            debug_log: debuglog::DebugLog::new(),
            environ: None,
            zstreams: HashMap::default(),
        }
    }

    /// Runs `entry_point(argv)` as a standalone program's main would; returns the exit
    /// status (134 after an uncaught exception, as `abort()` gives).
    pub fn run_entry(&mut self, argv: &[String]) -> RunResult {
        let r = self.run_entry_once(argv);
        if self.forked_child {
            // A child of `os.fork()` runs on this thread only: it ends here, as the
            // compiled child would leave main(), whatever threads the parent had.
            if let Some((msg, _)) = &r.fatal {
                let _ = self.write_fd(2, format!("{msg}\n").as_bytes());
            }
            let _ = self.flush();
            // SAFETY: _exit ends the process; nothing runs after it
            unsafe { libc::_exit(r.exit_code) }
        }
        r
    }

    fn run_entry_once(&mut self, argv: &[String]) -> RunResult {
        let argv_val = self.make_argv(argv);
        let mut res = self.call_function(self.prog.entry, &[argv_val], Span::default());
        if let Err(Unwind::Exit(status)) = res {
            let _ = self.flush();
            return RunResult {
                exit_code: status & 0xff,
                fatal: None,
            };
        }
        if let (Ok(_), Some(f)) = (&res, self.prog.at_exit) {
            // the C library's flush of buffered streams at a normal exit
            if let Err(e) = self.call_function(f, &[], Span::default()) {
                res = Err(e);
            }
        }
        let _ = self.flush();
        if res.is_ok() {
            // the C library's flush of the log file at a normal exit (an abort loses it)
            self.debug_flush();
        }
        match res {
            Ok(v) => RunResult {
                exit_code: (v.as_int() & 0xff) as i32,
                fatal: None,
            },
            Err(Unwind::Raise { etype, .. }) => {
                let name = self.class_name(etype);
                let _ = self.write_fd(
                    2,
                    format!("RPython traceback:\nFatal RPython error: {}\n", name).as_bytes(),
                );
                RunResult {
                    exit_code: 134,
                    fatal: None,
                }
            }
            Err(Unwind::Exit(status)) => RunResult {
                exit_code: status & 0xff,
                fatal: None,
            },
            Err(Unwind::Fatal { msg, .. }) if msg.starts_with(FATAL) => {
                let name = &msg[FATAL.len()..];
                let _ = self.write_fd(
                    2,
                    format!("RPython traceback:\nFatal RPython error: {}\n", name).as_bytes(),
                );
                RunResult {
                    exit_code: 134,
                    fatal: None,
                }
            }
            Err(Unwind::Fatal { msg, span }) => {
                // the caller writes the message, with the line it names
                RunResult {
                    exit_code: if msg.starts_with(TRAP) {
                        TRAP_STATUS
                    } else if msg.starts_with(SEGV) {
                        SEGV_STATUS
                    } else {
                        134
                    },
                    fatal: Some((msg, span)),
                }
            }
        }
    }

    /// The `argv` list of strings, of the entry point's parameter type.
    fn make_argv(&mut self, argv: &[String]) -> LlValue {
        let LlFunction::Graph { graph, .. } = &self.prog.functions[self.prog.entry as usize] else {
            return LlValue::Void;
        };
        let g = &self.prog.graphs[*graph as usize];
        let param = g.block(g.startblock).inputargs[0];
        let lty = g.concretetype[param.0 as usize];
        let items: Vec<LlValue> = argv
            .iter()
            .map(|a| LlValue::Ptr(self.mkstr(a.as_bytes())))
            .collect();
        LlValue::Ptr(self.list_new(lty, items))
    }

    pub fn class_name(&self, vtable: LlPtr) -> String {
        let p = &self.prog;
        match self
            .heap
            .getfield(&p.types, vtable, p.object_vtable, "name")
            .map(|v| v.as_ptr())
        {
            Ok(s) => String::from_utf8_lossy(self.heap.bytes(s).unwrap_or(b"?")).into_owned(),
            Err(_) => "?".into(),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Output::Inherit = self.out {
            std::io::stdout().flush()?;
        }
        Ok(())
    }

    pub(crate) fn write_fd(&mut self, fd: i64, data: &[u8]) -> std::io::Result<usize> {
        let stream = match self.fds.get_mut(fd) {
            Some(fds::Fd::Std(k)) => *k,
            Some(fds::Fd::File(f)) => {
                f.write_all(data)?;
                return Ok(data.len());
            }
            None => return Err(std::io::Error::from_raw_os_error(libc::EBADF)),
        };
        match (&mut self.out, stream) {
            (Output::Capture { stdout, .. }, 1) => stdout.extend_from_slice(data),
            (Output::Capture { stderr, .. }, 2) => stderr.extend_from_slice(data),
            (Output::Inherit, 1) => {
                let mut o = std::io::stdout().lock();
                o.write_all(data)?;
                o.flush()?;
            }
            (Output::Inherit, 2) => {
                let mut o = std::io::stderr().lock();
                o.write_all(data)?;
                o.flush()?;
            }
            // standard input, opened for reading only
            _ => return Err(std::io::Error::from_raw_os_error(libc::EBADF)),
        }
        Ok(data.len())
    }

    /// Reads at most `buf.len()` bytes from the program's descriptor `fd`.
    pub(crate) fn read_fd(&mut self, fd: i64, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::Read;
        match self.fds.get_mut(fd) {
            Some(fds::Fd::Std(0)) => std::io::stdin().read(buf),
            Some(fds::Fd::File(f)) => f.read(buf),
            // the run's output streams, opened for writing only
            Some(fds::Fd::Std(_)) | None => Err(std::io::Error::from_raw_os_error(libc::EBADF)),
        }
    }

    /// Calls function `f` of the function table.
    pub fn call_function(
        &mut self,
        f: u32,
        args: &[LlValue],
        span: Span,
    ) -> Result<LlValue, Unwind> {
        match &self.prog.functions[f as usize] {
            LlFunction::Graph { graph, .. } => self.call_graph(*graph, args),
            LlFunction::Runtime(rf) => {
                // runtime functions called through a pointer: no type information
                let rf = *rf;
                self.call_runtime(rf, args, LlType::VOID, span)
            }
            LlFunction::C(decl) => self.call_c(decl, args, LlType::VOID, span),
        }
    }

    fn call_graph(&mut self, g: u32, args: &[LlValue]) -> Result<LlValue, Unwind> {
        let graph: &'p FunctionGraph = &self.prog.graphs[g as usize];
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            // as the translated program's stack check: StackOverflow, a RuntimeError the
            // program may catch
            if self.prog.std_exceptions.contains_key("StackOverflow") {
                return Err(self.raise_std("StackOverflow"));
            }
            return Err(Unwind::Fatal {
                msg: format!("stack overflow (recursion deeper than {} calls)", MAX_DEPTH),
                span: graph.span,
            });
        }
        let code = self.code(g);
        let r = self.run_code(&code, graph, args);
        self.depth -= 1;
        r
    }

    /// The decoded form of graph `g`.
    fn code(&mut self, g: u32) -> Rc<Code<'p>> {
        let i = g as usize;
        if i >= self.codes.len() {
            self.codes.resize(i + 1, None);
        }
        let prog: &'p LlProgram = self.prog;
        self.codes[i]
            .get_or_insert_with(|| {
                // the live GC pointers of every call: the roots of both collectors
                Rc::new(code::decode(&prog.graphs[i], &prog.types))
            })
            .clone()
    }

    fn run_code(
        &mut self,
        code: &Code<'p>,
        graph: &'p FunctionGraph,
        args: &[LlValue],
    ) -> Result<LlValue, Unwind> {
        let mut frame = self.free_frames.pop().unwrap_or_default();
        frame.clear();
        frame.resize(code.nslots, LlValue::Void);
        let r = self.run_frame(code, graph, &mut frame, args);
        self.free_frames.push(frame);
        r
    }

    fn run_frame(
        &mut self,
        code: &Code<'p>,
        graph: &'p FunctionGraph,
        frame: &mut [LlValue],
        args: &[LlValue],
    ) -> Result<LlValue, Unwind> {
        let mut b = &code.blocks[code.start as usize];
        for (v, x) in b.inputargs.iter().zip(args) {
            frame[*v as usize] = *x;
        }
        loop {
            if self.heap.allocated >= self.gc_next && self.gc_auto {
                self.auto_collect(frame);
            }
            match b.kind {
                BlockKind::Normal => {}
                BlockKind::Return => {
                    return Ok(b
                        .inputargs
                        .first()
                        .map(|v| frame[*v as usize])
                        .unwrap_or(LlValue::Void));
                }
                BlockKind::Except => {
                    return Err(Unwind::Raise {
                        etype: frame[b.inputargs[0] as usize].as_ptr(),
                        evalue: frame[b.inputargs[1] as usize].as_ptr(),
                    });
                }
            }
            let n = b.ops.len();
            self.steps += n as u64;
            let catching = matches!(b.switch, Switch::LastException);
            let mut raised = None;
            for (i, op) in b.ops.iter().enumerate() {
                if let Some(o) = op.op {
                    if let Some(v) = ops::pure_op(o, &op.args, frame) {
                        frame[op.result as usize] = v;
                        continue;
                    }
                }
                if let Some(v) = ops::fast_mem_op(&mut self.heap, op, frame) {
                    frame[op.result as usize] = v;
                    continue;
                }
                match self.eval_op(graph, frame, op) {
                    Ok(v) => frame[op.result as usize] = v,
                    Err(Unwind::Raise { etype, evalue }) if catching && i + 1 == n => {
                        raised = Some((etype, evalue));
                    }
                    Err(e) => {
                        self.steps -= (n - i - 1) as u64;
                        return Err(e);
                    }
                }
            }
            let link = match &b.switch {
                Switch::None => &b.exits[0],
                Switch::Value(v) => {
                    let x = v.get(frame);
                    b.exits
                        .iter()
                        .find(|l| l.case.is_some_and(|c| switch_matches(x, c)))
                        .ok_or_else(|| Unwind::Fatal {
                            msg: format!("no exit for the switch value {}", x),
                            span: b.span,
                        })?
                }
                Switch::LastException => match raised {
                    None => &b.exits[0],
                    Some((etype, evalue)) => {
                        let found = b.exits[1..].iter().find(|l| {
                            matches!(l.case, Some(LlValue::Ptr(case)) if self.exc_matches(etype, case))
                        });
                        match found {
                            Some(link) => {
                                if let Some(t) = link.last_exception {
                                    frame[t as usize] = LlValue::Ptr(etype);
                                }
                                if let Some(v) = link.last_exc_value {
                                    frame[v as usize] = LlValue::Ptr(evalue);
                                }
                                link
                            }
                            None => return Err(Unwind::Raise { etype, evalue }),
                        }
                    }
                },
            };
            let target = &code.blocks[link.target as usize];
            if link.direct {
                for (v, a) in target.inputargs.iter().zip(link.args.iter()) {
                    frame[*v as usize] = a.get(frame);
                }
            } else {
                let mut moved = [LlValue::Void; 16];
                if link.args.len() <= moved.len() {
                    for (m, a) in moved.iter_mut().zip(link.args.iter()) {
                        *m = a.get(frame);
                    }
                    for (v, x) in target.inputargs.iter().zip(moved.iter()) {
                        frame[*v as usize] = *x;
                    }
                } else {
                    let vals: Vec<LlValue> = link.args.iter().map(|a| a.get(frame)).collect();
                    for (v, x) in target.inputargs.iter().zip(vals) {
                        frame[*v as usize] = x;
                    }
                }
            }
            b = target;
        }
    }

    /// Whether an exception of class `etype` is caught by an `except case`.
    fn exc_matches(&self, etype: LlPtr, case: LlPtr) -> bool {
        // NULL: the exit takes any exception (see `ExitCase::Ll`)
        if etype == case || case == LlPtr::Null {
            return true;
        }
        let p = &self.prog;
        let get = |v: LlPtr, f: &str| {
            self.heap
                .getfield(&p.types, v, p.object_vtable, f)
                .map(|x| x.as_int())
                .unwrap_or(-1)
        };
        let (cmin, cmax) = (
            get(case, "subclassrange_min"),
            get(case, "subclassrange_max"),
        );
        let emin = get(etype, "subclassrange_min");
        cmin >= 0 && cmin <= emin && emin < cmax
    }

    /// Raises a built-in exception (from an operation or a runtime function).
    /// `OSError` carrying the C `errno` of the call that failed in its `errno` attribute, as
    /// the reference's external functions raise it (`except OSError as e: e.errno`).
    pub(crate) fn raise_oserror(&mut self, errno: i32) -> Unwind {
        let u = self.raise_std("OSError");
        if let Unwind::Raise { evalue, .. } = &u {
            let types = &self.prog.types;
            let mut s = self.prog.std_exceptions.get("OSError").map(|e| e.1);
            while let Some(st) = s {
                if types.field_type(st, "inst_errno").is_some() {
                    let e = LlValue::Int(errno as i64);
                    let _ = self.heap.setfield(types, *evalue, st, "inst_errno", e);
                    break;
                }
                s = types.parent(st);
            }
        }
        u
    }

    pub(crate) fn raise_std(&mut self, name: &str) -> Unwind {
        let (vt, st) = match self.prog.std_exceptions.get(name) {
            Some(e) => *e,
            None => {
                return Unwind::Fatal {
                    msg: format!("{} raised", name),
                    span: Span::default(),
                }
            }
        };
        let p = self.heap.malloc(&self.prog.types, st, 0);
        let _ = self.heap.setfield(
            &self.prog.types,
            p,
            self.prog.object,
            "typeptr",
            LlValue::Ptr(vt),
        );
        Unwind::Raise {
            etype: vt,
            evalue: p,
        }
    }
}

fn switch_matches(x: LlValue, case: LlValue) -> bool {
    match case {
        LlValue::Bool(b) => x.as_bool() == b,
        LlValue::Int(i) => x.as_int() == i,
        LlValue::Char(c) => x.as_int() == c as i64,
        other => x == other,
    }
}

/// Annotates, RTypes and runs a program given as source text, calling `func` with the
/// integer arguments: the test harness of the reference's `interpret()`.
pub mod harness;
