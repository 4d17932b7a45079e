//! Executes compiled code on a small test-only VM (a few Python 2 object types) and compares
//! what the programs print with the output of CPython 2.7 (recorded below). This checks the
//! *meaning* of the generated code — unwinding through `finally`/`with`/loops, exception
//! matching and re-raising, scopes, comprehensions, generators — independently of the real
//! interpreter.

use rpy_lsp::compiler::bytecode::flags;
use rpy_lsp::compiler::{
    compile_module, verify_stack_depth, BinOp, CmpOp, CodeObject, Const, Instr, UnOp,
};
use rpy_lsp::syntax::{parse_module, FileId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Ns = Rc<RefCell<HashMap<String, V>>>;

#[derive(Clone)]
enum V {
    None,
    Bool(bool),
    Int(i64),
    Str(Rc<str>),
    List(Rc<RefCell<Vec<V>>>),
    Tuple(Rc<Vec<V>>),
    Dict(Rc<RefCell<Vec<(V, V)>>>),
    Set(Rc<RefCell<Vec<V>>>),
    Func(Rc<Func>),
    Cell(Rc<RefCell<Option<V>>>),
    Iter(Rc<RefCell<Iter>>),
    Class(Rc<Class>),
    Inst(Rc<Inst>),
    Method(Rc<V>, Rc<V>),
    Builtin(&'static str),
    Code(Rc<CodeObject>),
    Ns(Ns),
    Slice(Rc<(V, V, V)>),
}

struct Func {
    code: Rc<CodeObject>,
    defaults: Vec<V>,
    closure: Vec<V>,
    globals: Ns,
}

struct Class {
    name: String,
    bases: Vec<Rc<Class>>,
    dict: Ns,
}

struct Inst {
    class: Rc<Class>,
    dict: Ns,
}

enum Iter {
    Seq(Vec<V>, usize),
    Gen(Option<Box<Frame>>),
}

struct Frame {
    code: Rc<CodeObject>,
    locals: Vec<Option<V>>,
    cells: Vec<V>,
    stack: Vec<V>,
    blocks: Vec<(u32, usize)>,
    pc: usize,
    globals: Ns,
    ns: Option<Ns>,
}

enum Out {
    Return(V),
    Yield(V),
}

/// An exception in flight: the instance (its class is the type).
type Exc = V;
type R<T> = Result<T, Exc>;

struct Vm {
    out: String,
    softspace: bool,
    classes: HashMap<&'static str, Rc<Class>>,
    steps: usize,
}

fn ns() -> Ns {
    Rc::new(RefCell::new(HashMap::new()))
}

fn class_of(v: &V) -> Option<Rc<Class>> {
    match v {
        V::Inst(i) => Some(i.class.clone()),
        _ => None,
    }
}

fn is_subclass(c: &Rc<Class>, of: &Rc<Class>) -> bool {
    Rc::ptr_eq(c, of) || c.bases.iter().any(|b| is_subclass(b, of))
}

fn lookup(c: &Rc<Class>, name: &str) -> Option<V> {
    if let Some(v) = c.dict.borrow().get(name) {
        return Some(v.clone());
    }
    c.bases.iter().find_map(|b| lookup(b, name))
}

fn truthy(v: &V) -> bool {
    match v {
        V::None => false,
        V::Bool(b) => *b,
        V::Int(i) => *i != 0,
        V::Str(s) => !s.is_empty(),
        V::List(l) => !l.borrow().is_empty(),
        V::Tuple(t) => !t.is_empty(),
        V::Dict(d) => !d.borrow().is_empty(),
        V::Set(s) => !s.borrow().is_empty(),
        _ => true,
    }
}

fn eq(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::None, V::None) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Bool(x), V::Int(y)) | (V::Int(y), V::Bool(x)) => *x as i64 == *y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::List(x), V::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| eq(a, b))
        }
        (V::Tuple(x), V::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| eq(a, b))
        }
        _ => identical(a, b),
    }
}

fn identical(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::None, V::None) => true,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Str(x), V::Str(y)) => Rc::ptr_eq(x, y) || x == y,
        (V::List(x), V::List(y)) => Rc::ptr_eq(x, y),
        (V::Dict(x), V::Dict(y)) => Rc::ptr_eq(x, y),
        (V::Class(x), V::Class(y)) => Rc::ptr_eq(x, y),
        (V::Inst(x), V::Inst(y)) => Rc::ptr_eq(x, y),
        (V::Func(x), V::Func(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

fn repr(v: &V) -> String {
    match v {
        V::Str(s) => format!("'{s}'"),
        _ => to_str(v),
    }
}

fn to_str(v: &V) -> String {
    match v {
        V::None => "None".into(),
        V::Bool(true) => "True".into(),
        V::Bool(false) => "False".into(),
        V::Int(i) => i.to_string(),
        V::Str(s) => s.to_string(),
        V::List(l) => format!(
            "[{}]",
            l.borrow().iter().map(repr).collect::<Vec<_>>().join(", ")
        ),
        V::Tuple(t) if t.len() == 1 => format!("({},)", repr(&t[0])),
        V::Tuple(t) => format!("({})", t.iter().map(repr).collect::<Vec<_>>().join(", ")),
        V::Dict(d) => format!(
            "{{{}}}",
            d.borrow()
                .iter()
                .map(|(k, v)| format!("{}: {}", repr(k), repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        V::Class(c) => format!("<class '{}'>", c.name),
        V::Inst(i) => format!("<{} object>", i.class.name),
        _ => "<object>".into(),
    }
}

fn slice_indices(len: usize, lo: &V, hi: &V, step: &V) -> Vec<usize> {
    let len = len as i64;
    let step = match step {
        V::Int(s) => *s,
        _ => 1,
    };
    let norm = |v: &V, default: i64| -> i64 {
        match v {
            V::Int(i) => {
                let i = if *i < 0 { i + len } else { *i };
                if step > 0 {
                    i.clamp(0, len)
                } else {
                    i.clamp(-1, len - 1)
                }
            }
            _ => default,
        }
    };
    let (start, stop) = if step > 0 {
        (norm(lo, 0), norm(hi, len))
    } else {
        (norm(lo, len - 1), norm(hi, -1))
    };
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    out
}

fn const_value(c: &Const) -> V {
    match c {
        Const::None => V::None,
        Const::Bool(b) => V::Bool(*b),
        Const::Int(i) => V::Int(*i),
        Const::Long(i) => V::Int(*i as i64),
        Const::Str(s) => V::Str(Rc::from(String::from_utf8_lossy(s).as_ref())),
        Const::Unicode(s) => V::Str(s.clone()),
        Const::Tuple(t) => V::Tuple(Rc::new(t.iter().map(const_value).collect())),
        Const::Code(c) => V::Code(c.clone()),
        Const::Float(_) | Const::Ellipsis => V::None,
    }
}

impl Vm {
    fn new() -> Vm {
        let mut classes: HashMap<&'static str, Rc<Class>> = HashMap::new();
        let mk = |name: &'static str,
                  base: Option<&'static str>,
                  classes: &mut HashMap<&'static str, Rc<Class>>| {
            let bases = base.map(|b| vec![classes[b].clone()]).unwrap_or_default();
            classes.insert(
                name,
                Rc::new(Class {
                    name: name.to_string(),
                    bases,
                    dict: ns(),
                }),
            );
        };
        mk("object", None, &mut classes);
        for (n, b) in [
            ("BaseException", "object"),
            ("Exception", "BaseException"),
            ("StandardError", "Exception"),
            ("StopIteration", "Exception"),
            ("ValueError", "StandardError"),
            ("TypeError", "StandardError"),
            ("AssertionError", "StandardError"),
            ("SystemError", "StandardError"),
            ("NameError", "StandardError"),
            ("AttributeError", "StandardError"),
            ("ArithmeticError", "StandardError"),
            ("ZeroDivisionError", "ArithmeticError"),
            ("LookupError", "StandardError"),
            ("KeyError", "LookupError"),
            ("IndexError", "LookupError"),
        ] {
            mk(n, Some(b), &mut classes);
        }
        Vm {
            out: String::new(),
            softspace: false,
            classes,
            steps: 0,
        }
    }

    fn exc(&self, class: &str, msg: &str) -> Exc {
        let class = self.classes[class].clone();
        let dict = ns();
        dict.borrow_mut().insert(
            "args".into(),
            V::Tuple(Rc::new(vec![V::Str(Rc::from(msg))])),
        );
        V::Inst(Rc::new(Inst { class, dict }))
    }

    fn builtin(&self, name: &str) -> Option<V> {
        if let Some(c) = self.classes.get(name) {
            return Some(V::Class(c.clone()));
        }
        let b: &'static str = match name {
            "range" => "range",
            "len" => "len",
            "list" => "list",
            "sum" => "sum",
            "repr" => "repr",
            "str" => "str",
            "type" => "type",
            "enumerate" => "enumerate",
            "isinstance" => "isinstance",
            _ => return None,
        };
        Some(V::Builtin(b))
    }

    fn load_global(&self, globals: &Ns, name: &str) -> R<V> {
        if let Some(v) = globals.borrow().get(name) {
            return Ok(v.clone());
        }
        self.builtin(name)
            .ok_or_else(|| self.exc("NameError", &format!("name '{name}' is not defined")))
    }

    fn iterate(&mut self, v: &V) -> R<Vec<V>> {
        let it = self.get_iter(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.next(&it)? {
            out.push(x);
        }
        Ok(out)
    }

    fn get_iter(&mut self, v: &V) -> R<V> {
        Ok(match v {
            V::List(l) => V::Iter(Rc::new(RefCell::new(Iter::Seq(l.borrow().clone(), 0)))),
            V::Tuple(t) => V::Iter(Rc::new(RefCell::new(Iter::Seq(t.to_vec(), 0)))),
            V::Set(s) => V::Iter(Rc::new(RefCell::new(Iter::Seq(s.borrow().clone(), 0)))),
            V::Str(s) => V::Iter(Rc::new(RefCell::new(Iter::Seq(
                s.chars()
                    .map(|c| V::Str(Rc::from(c.to_string().as_str())))
                    .collect(),
                0,
            )))),
            V::Dict(d) => V::Iter(Rc::new(RefCell::new(Iter::Seq(
                d.borrow().iter().map(|(k, _)| k.clone()).collect(),
                0,
            )))),
            V::Iter(_) => v.clone(),
            _ => return Err(self.exc("TypeError", "not iterable")),
        })
    }

    fn next(&mut self, it: &V) -> R<Option<V>> {
        let V::Iter(it) = it else {
            return Err(self.exc("TypeError", "not an iterator"));
        };
        let frame = match &mut *it.borrow_mut() {
            Iter::Seq(items, i) => {
                let r = items.get(*i).cloned();
                *i += 1;
                return Ok(r);
            }
            Iter::Gen(f) => f.take(),
        };
        let Some(mut frame) = frame else {
            return Ok(None);
        };
        if frame.pc > 0 {
            frame.stack.push(V::None); // the value sent into the paused `yield`
        }
        match self.run(&mut frame)? {
            Out::Yield(v) => {
                *it.borrow_mut() = Iter::Gen(Some(frame));
                Ok(Some(v))
            }
            Out::Return(_) => Ok(None),
        }
    }

    fn getattr(&mut self, obj: &V, name: &str) -> R<V> {
        let bound = |f: V, obj: &V| match f {
            V::Func(_) => V::Method(Rc::new(obj.clone()), Rc::new(f)),
            other => other,
        };
        match obj {
            V::Inst(i) => {
                if let Some(v) = i.dict.borrow().get(name) {
                    return Ok(v.clone());
                }
                if let Some(v) = lookup(&i.class, name) {
                    return Ok(bound(v, obj));
                }
            }
            V::Class(c) => {
                if name == "__name__" {
                    return Ok(V::Str(Rc::from(c.name.as_str())));
                }
                if let Some(v) = lookup(c, name) {
                    return Ok(v);
                }
            }
            V::List(_) | V::Dict(_) | V::Str(_) => {
                return Ok(V::Method(
                    Rc::new(obj.clone()),
                    Rc::new(V::Str(Rc::from(name))),
                ));
            }
            _ => {}
        }
        Err(self.exc("AttributeError", name))
    }

    fn call_method_builtin(&mut self, obj: &V, name: &str, args: Vec<V>) -> R<V> {
        match (obj, name) {
            (V::List(l), "append") => {
                l.borrow_mut().push(args[0].clone());
                Ok(V::None)
            }
            (V::Dict(d), "get") => {
                let found = d
                    .borrow()
                    .iter()
                    .find(|(k, _)| eq(k, &args[0]))
                    .map(|(_, v)| v.clone());
                Ok(found.unwrap_or_else(|| args.get(1).cloned().unwrap_or(V::None)))
            }
            (V::Str(s), "upper") => Ok(V::Str(Rc::from(s.to_uppercase().as_str()))),
            _ => Err(self.exc("AttributeError", name)),
        }
    }

    fn call(&mut self, f: &V, mut args: Vec<V>, kwargs: Vec<(String, V)>) -> R<V> {
        match f {
            V::Func(func) => {
                let frame = self.make_frame(func, args, kwargs)?;
                let mut frame = Box::new(frame);
                if func.code.has_flag(flags::GENERATOR) {
                    return Ok(V::Iter(Rc::new(RefCell::new(Iter::Gen(Some(frame))))));
                }
                match self.run(&mut frame)? {
                    Out::Return(v) => Ok(v),
                    Out::Yield(_) => Err(self.exc("SystemError", "yield outside generator")),
                }
            }
            V::Method(obj, m) => match &**m {
                V::Str(name) => self.call_method_builtin(obj, name, args),
                m => {
                    args.insert(0, (**obj).clone());
                    self.call(m, args, kwargs)
                }
            },
            V::Class(c) => {
                let inst = V::Inst(Rc::new(Inst {
                    class: c.clone(),
                    dict: ns(),
                }));
                if is_subclass(c, &self.classes["BaseException"]) {
                    if let V::Inst(i) = &inst {
                        i.dict
                            .borrow_mut()
                            .insert("args".into(), V::Tuple(Rc::new(args.clone())));
                    }
                }
                if let Some(init) = lookup(c, "__init__") {
                    args.insert(0, inst.clone());
                    self.call(&init, args, kwargs)?;
                }
                Ok(inst)
            }
            V::Builtin(name) => self.call_builtin(name, args),
            _ => Err(self.exc("TypeError", "not callable")),
        }
    }

    fn call_builtin(&mut self, name: &str, args: Vec<V>) -> R<V> {
        let int = |v: &V| if let V::Int(i) = v { *i } else { 0 };
        match name {
            "range" => {
                let (lo, hi) = if args.len() == 1 {
                    (0, int(&args[0]))
                } else {
                    (int(&args[0]), int(&args[1]))
                };
                Ok(V::List(Rc::new(RefCell::new(
                    (lo..hi).map(V::Int).collect(),
                ))))
            }
            "len" => Ok(V::Int(match &args[0] {
                V::List(l) => l.borrow().len(),
                V::Tuple(t) => t.len(),
                V::Str(s) => s.chars().count(),
                V::Dict(d) => d.borrow().len(),
                V::Set(s) => s.borrow().len(),
                _ => return Err(self.exc("TypeError", "len")),
            } as i64)),
            "list" => Ok(V::List(Rc::new(RefCell::new(self.iterate(&args[0])?)))),
            "sum" => {
                let mut t = 0;
                for v in self.iterate(&args[0])? {
                    t += int(&v);
                }
                Ok(V::Int(t))
            }
            "repr" => Ok(V::Str(Rc::from(repr(&args[0]).as_str()))),
            "str" => Ok(V::Str(Rc::from(to_str(&args[0]).as_str()))),
            "type" => Ok(class_of(&args[0]).map(V::Class).unwrap_or(V::None)),
            "enumerate" => {
                let items = self.iterate(&args[0])?;
                let pairs = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| V::Tuple(Rc::new(vec![V::Int(i as i64), v])));
                Ok(V::Iter(Rc::new(RefCell::new(Iter::Seq(
                    pairs.collect(),
                    0,
                )))))
            }
            "isinstance" => Ok(V::Bool(match (class_of(&args[0]), &args[1]) {
                (Some(c), V::Class(of)) => is_subclass(&c, of),
                _ => false,
            })),
            _ => Err(self.exc("TypeError", name)),
        }
    }

    fn make_frame(&mut self, func: &Func, args: Vec<V>, kwargs: Vec<(String, V)>) -> R<Frame> {
        let code = func.code.clone();
        let argc = code.co_argcount as usize;
        let mut locals: Vec<Option<V>> = vec![None; code.co_varnames.len()];
        let mut extra = Vec::new();
        for (i, a) in args.into_iter().enumerate() {
            if i < argc {
                locals[i] = Some(a);
            } else {
                extra.push(a);
            }
        }
        let mut next = argc;
        if code.has_flag(flags::VARARGS) {
            locals[next] = Some(V::Tuple(Rc::new(extra)));
            next += 1;
        } else if !extra.is_empty() {
            return Err(self.exc("TypeError", "too many arguments"));
        }
        let kwdict = Rc::new(RefCell::new(Vec::new()));
        for (k, v) in kwargs {
            match code.co_varnames[..argc].iter().position(|n| **n == *k) {
                Some(i) => locals[i] = Some(v),
                None => kwdict.borrow_mut().push((V::Str(Rc::from(k.as_str())), v)),
            }
        }
        if code.has_flag(flags::VARKEYWORDS) {
            locals[next] = Some(V::Dict(kwdict));
        }
        let first_default = argc - func.defaults.len();
        for (i, slot) in locals.iter_mut().enumerate().take(argc) {
            if slot.is_none() {
                if i < first_default {
                    return Err(self.exc("TypeError", "missing argument"));
                }
                *slot = Some(func.defaults[i - first_default].clone());
            }
        }
        let mut cells = Vec::new();
        for name in &code.co_cellvars {
            let init = code
                .co_varnames
                .iter()
                .position(|v| v == name)
                .and_then(|i| locals[i].clone());
            cells.push(V::Cell(Rc::new(RefCell::new(init))));
        }
        cells.extend(func.closure.iter().cloned());
        let ns = code.has_flag(flags::CLASS_BODY).then(ns);
        Ok(Frame {
            code,
            locals,
            cells,
            stack: Vec::new(),
            blocks: Vec::new(),
            pc: 0,
            globals: func.globals.clone(),
            ns,
        })
    }

    fn run(&mut self, f: &mut Frame) -> R<Out> {
        loop {
            self.steps += 1;
            assert!(self.steps < 1_000_000, "runaway program");
            let instr = f.code.co_code[f.pc];
            f.pc += 1;
            match self.step(f, instr) {
                Ok(None) => {}
                Ok(Some(out)) => return Ok(out),
                Err(exc) => match f.blocks.pop() {
                    Some((target, depth)) => {
                        f.stack.truncate(depth);
                        let ty = class_of(&exc).map(V::Class).unwrap_or(V::None);
                        f.stack.push(exc);
                        f.stack.push(ty);
                        f.pc = target as usize;
                    }
                    None => return Err(exc),
                },
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: V, b: V, inplace: bool) -> R<V> {
        use BinOp::*;
        Ok(match (op, &a, &b) {
            (Add, V::Int(x), V::Int(y)) => V::Int(x + y),
            (Sub, V::Int(x), V::Int(y)) => V::Int(x - y),
            (Mul, V::Int(x), V::Int(y)) => V::Int(x * y),
            (Div | FloorDiv, V::Int(x), V::Int(y)) => {
                if *y == 0 {
                    return Err(self.exc("ZeroDivisionError", "division by zero"));
                }
                V::Int(
                    x.div_euclid(*y)
                        - if (x.rem_euclid(*y) != 0) && *y < 0 {
                            1
                        } else {
                            0
                        },
                )
            }
            (Mod, V::Int(x), V::Int(y)) => V::Int(((x % y) + y) % y),
            (Pow, V::Int(x), V::Int(y)) => V::Int(x.pow(*y as u32)),
            (Add, V::Str(x), V::Str(y)) => V::Str(Rc::from(format!("{x}{y}").as_str())),
            (Add, V::List(x), V::List(y)) if inplace => {
                let items = y.borrow().clone();
                x.borrow_mut().extend(items);
                a.clone()
            }
            (Add, V::List(x), V::List(y)) => {
                let mut v = x.borrow().clone();
                v.extend(y.borrow().iter().cloned());
                V::List(Rc::new(RefCell::new(v)))
            }
            (Mul, V::List(x), V::Int(n)) if inplace => {
                let items = x.borrow().clone();
                for _ in 1..*n {
                    x.borrow_mut().extend(items.iter().cloned());
                }
                a.clone()
            }
            (Mod, V::Str(fmt), args) => {
                let args: Vec<V> = match args {
                    V::Tuple(t) => t.to_vec(),
                    other => vec![other.clone()],
                };
                let mut out = String::new();
                let mut it = args.iter();
                let mut chars = fmt.chars();
                while let Some(c) = chars.next() {
                    if c == '%' {
                        let spec = chars.next();
                        let v = it.next().cloned().unwrap_or(V::None);
                        out.push_str(&if spec == Some('r') {
                            repr(&v)
                        } else {
                            to_str(&v)
                        });
                    } else {
                        out.push(c);
                    }
                }
                V::Str(Rc::from(out.as_str()))
            }
            _ => return Err(self.exc("TypeError", &format!("unsupported operands for {op:?}"))),
        })
    }

    fn compare(&mut self, op: CmpOp, a: &V, b: &V) -> R<bool> {
        Ok(match op {
            CmpOp::Eq => eq(a, b),
            CmpOp::Ne => !eq(a, b),
            CmpOp::Is => identical(a, b),
            CmpOp::IsNot => !identical(a, b),
            CmpOp::In | CmpOp::NotIn => {
                let found = match b {
                    V::Str(s) => match a {
                        V::Str(x) => s.contains(&**x),
                        _ => false,
                    },
                    _ => self.iterate(b)?.iter().any(|x| eq(x, a)),
                };
                found == (op == CmpOp::In)
            }
            CmpOp::ExcMatch => {
                let V::Class(t) = a else { return Ok(false) };
                match b {
                    V::Class(c) => is_subclass(t, c),
                    V::Tuple(cs) => cs
                        .iter()
                        .any(|c| matches!(c, V::Class(c) if is_subclass(t, c))),
                    _ => false,
                }
            }
            _ => {
                let ord = match (a, b) {
                    (V::Int(x), V::Int(y)) => x.cmp(y),
                    (V::Str(x), V::Str(y)) => x.cmp(y),
                    _ => return Err(self.exc("TypeError", "unorderable")),
                };
                match op {
                    CmpOp::Lt => ord.is_lt(),
                    CmpOp::Le => ord.is_le(),
                    CmpOp::Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                }
            }
        })
    }

    fn getitem(&mut self, obj: &V, idx: &V) -> R<V> {
        if let V::Slice(s) = idx {
            return self.getslice(obj, &s.0, &s.1, &s.2);
        }
        match (obj, idx) {
            (V::List(l), V::Int(i)) => {
                let l = l.borrow();
                let i = if *i < 0 { i + l.len() as i64 } else { *i };
                l.get(i as usize)
                    .cloned()
                    .ok_or_else(|| self.exc("IndexError", "list index out of range"))
            }
            (V::Tuple(t), V::Int(i)) => {
                let i = if *i < 0 { i + t.len() as i64 } else { *i };
                t.get(i as usize)
                    .cloned()
                    .ok_or_else(|| self.exc("IndexError", "tuple index out of range"))
            }
            (V::Dict(d), k) => {
                let found = d
                    .borrow()
                    .iter()
                    .find(|(x, _)| eq(x, k))
                    .map(|(_, v)| v.clone());
                found.ok_or_else(|| self.exc("KeyError", &to_str(k)))
            }
            _ => Err(self.exc("TypeError", "unsubscriptable")),
        }
    }

    fn setitem(&mut self, obj: &V, idx: &V, v: V) -> R<()> {
        match (obj, idx) {
            (V::List(l), V::Int(i)) => {
                let mut l = l.borrow_mut();
                let i = if *i < 0 { i + l.len() as i64 } else { *i } as usize;
                if i >= l.len() {
                    drop(l);
                    return Err(self.exc("IndexError", "list assignment index out of range"));
                }
                l[i] = v;
            }
            (V::Dict(d), k) => {
                let mut d = d.borrow_mut();
                match d.iter_mut().find(|(x, _)| eq(x, k)) {
                    Some(slot) => slot.1 = v,
                    None => d.push((k.clone(), v)),
                }
            }
            _ => return Err(self.exc("TypeError", "item assignment")),
        }
        Ok(())
    }

    fn getslice(&mut self, obj: &V, lo: &V, hi: &V, step: &V) -> R<V> {
        match obj {
            V::List(l) => {
                let l = l.borrow();
                let items = slice_indices(l.len(), lo, hi, step)
                    .into_iter()
                    .map(|i| l[i].clone())
                    .collect();
                Ok(V::List(Rc::new(RefCell::new(items))))
            }
            V::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                let out: String = slice_indices(chars.len(), lo, hi, step)
                    .into_iter()
                    .map(|i| chars[i])
                    .collect();
                Ok(V::Str(Rc::from(out.as_str())))
            }
            _ => Err(self.exc("TypeError", "unsliceable")),
        }
    }

    fn setslice(&mut self, obj: &V, lo: &V, hi: &V, v: Option<V>) -> R<()> {
        let V::List(l) = obj else {
            return Err(self.exc("TypeError", "slice assignment"));
        };
        let new = match v {
            Some(v) => self.iterate(&v)?,
            None => Vec::new(),
        };
        let len = l.borrow().len();
        let idx = slice_indices(len, lo, hi, &V::None);
        let (start, end) = match (idx.first(), idx.last()) {
            (Some(&a), Some(&b)) => (a, b + 1),
            _ => {
                let s = slice_indices(len + 1, lo, &V::None, &V::None)
                    .first()
                    .copied()
                    .unwrap_or(len);
                (s, s)
            }
        };
        l.borrow_mut().splice(start..end, new);
        Ok(())
    }

    fn print_item(&mut self, v: &V) {
        if self.softspace {
            self.out.push(' ');
        }
        let s = to_str(v);
        self.softspace = !s.ends_with('\n');
        self.out.push_str(&s);
    }

    fn cell_get(&self, cell: &V, code: &CodeObject, i: u32) -> R<V> {
        let V::Cell(c) = cell else { unreachable!() };
        let cells = code
            .co_cellvars
            .iter()
            .chain(code.co_freevars.iter())
            .collect::<Vec<_>>();
        c.borrow().clone().ok_or_else(|| {
            self.exc(
                "NameError",
                &format!("free variable '{}'", cells[i as usize]),
            )
        })
    }

    #[allow(clippy::cognitive_complexity)]
    fn step(&mut self, f: &mut Frame, instr: Instr) -> R<Option<Out>> {
        use Instr::*;
        let code = f.code.clone();
        let name = |i: u32| code.co_names[i as usize].to_string();
        macro_rules! pop {
            () => {
                f.stack.pop().expect("stack underflow")
            };
        }
        match instr {
            Nop => {}
            PopTop => {
                pop!();
            }
            RotTwo => {
                let n = f.stack.len();
                f.stack.swap(n - 1, n - 2);
            }
            RotThree => {
                let top = pop!();
                let n = f.stack.len();
                f.stack.insert(n - 2, top);
            }
            DupTop => {
                let v = f.stack.last().unwrap().clone();
                f.stack.push(v);
            }
            DupTopTwo => {
                let n = f.stack.len();
                let (a, b) = (f.stack[n - 2].clone(), f.stack[n - 1].clone());
                f.stack.push(a);
                f.stack.push(b);
            }
            LoadConst(i) => f.stack.push(const_value(&code.co_consts[i as usize])),
            LoadFast(i) => match &f.locals[i as usize] {
                Some(v) => f.stack.push(v.clone()),
                None => {
                    return Err(self.exc(
                        "NameError",
                        &format!("local '{}'", code.co_varnames[i as usize]),
                    ))
                }
            },
            StoreFast(i) => f.locals[i as usize] = Some(pop!()),
            DeleteFast(i) => f.locals[i as usize] = None,
            LoadName(i) => {
                let n = name(i);
                let local = f.ns.as_ref().and_then(|ns| ns.borrow().get(&n).cloned());
                let v = match local {
                    Some(v) => v,
                    None => self.load_global(&f.globals, &n)?,
                };
                f.stack.push(v);
            }
            StoreName(i) => {
                let v = pop!();
                f.ns.as_ref()
                    .unwrap_or(&f.globals)
                    .borrow_mut()
                    .insert(name(i), v);
            }
            DeleteName(i) => {
                f.ns.as_ref()
                    .unwrap_or(&f.globals)
                    .borrow_mut()
                    .remove(&name(i));
            }
            LoadGlobal(i) => {
                let v = self.load_global(&f.globals, &name(i))?;
                f.stack.push(v);
            }
            StoreGlobal(i) => {
                let v = pop!();
                f.globals.borrow_mut().insert(name(i), v);
            }
            DeleteGlobal(i) => {
                f.globals.borrow_mut().remove(&name(i));
            }
            LoadDeref(i) => {
                let v = self.cell_get(&f.cells[i as usize], &code, i)?;
                f.stack.push(v);
            }
            StoreDeref(i) => {
                let v = pop!();
                let V::Cell(c) = &f.cells[i as usize] else {
                    unreachable!()
                };
                *c.borrow_mut() = Some(v);
            }
            LoadClosure(i) => f.stack.push(f.cells[i as usize].clone()),
            LoadAttr(i) => {
                let o = pop!();
                let v = self.getattr(&o, &name(i))?;
                f.stack.push(v);
            }
            StoreAttr(i) => {
                let o = pop!();
                let v = pop!();
                match o {
                    V::Inst(inst) => {
                        inst.dict.borrow_mut().insert(name(i), v);
                    }
                    _ => return Err(self.exc("AttributeError", "read-only")),
                }
            }
            DeleteAttr(_) => return Err(self.exc("SystemError", "delattr")),
            Unary(op) => {
                let a = pop!();
                let V::Int(x) = a else {
                    return Err(self.exc("TypeError", "unary"));
                };
                f.stack.push(V::Int(match op {
                    UnOp::Neg => -x,
                    UnOp::Pos => x,
                    UnOp::Invert => !x,
                }));
            }
            Binary(op) | Inplace(op) => {
                let b = pop!();
                let a = pop!();
                let v = self.binary(op, a, b, matches!(instr, Inplace(_)))?;
                f.stack.push(v);
            }
            Compare(op) => {
                let b = pop!();
                let a = pop!();
                let r = self.compare(op, &a, &b)?;
                f.stack.push(V::Bool(r));
            }
            Subscr => {
                let i = pop!();
                let o = pop!();
                let v = self.getitem(&o, &i)?;
                f.stack.push(v);
            }
            StoreSubscr => {
                let i = pop!();
                let o = pop!();
                let v = pop!();
                self.setitem(&o, &i, v)?;
            }
            DeleteSubscr => {
                let i = pop!();
                let o = pop!();
                match (&o, &i) {
                    (V::Dict(d), k) => d.borrow_mut().retain(|(x, _)| !eq(x, k)),
                    (V::List(l), V::Int(k)) => {
                        l.borrow_mut().remove(*k as usize);
                    }
                    _ => return Err(self.exc("TypeError", "delitem")),
                }
            }
            Slice { lower, upper } | StoreSlice { lower, upper } | DeleteSlice { lower, upper } => {
                let hi = if upper { pop!() } else { V::None };
                let lo = if lower { pop!() } else { V::None };
                let o = pop!();
                match instr {
                    Slice { .. } => {
                        let v = self.getslice(&o, &lo, &hi, &V::None)?;
                        f.stack.push(v);
                    }
                    StoreSlice { .. } => {
                        let v = pop!();
                        self.setslice(&o, &lo, &hi, Some(v))?;
                    }
                    _ => self.setslice(&o, &lo, &hi, None)?,
                }
            }
            BuildSlice(n) => {
                let step = if n == 3 { pop!() } else { V::None };
                let hi = pop!();
                let lo = pop!();
                f.stack.push(V::Slice(Rc::new((lo, hi, step))));
            }
            BuildTuple(n) | BuildList(n) | BuildSet(n) => {
                let at = f.stack.len() - n as usize;
                let items = f.stack.split_off(at);
                f.stack.push(match instr {
                    BuildTuple(_) => V::Tuple(Rc::new(items)),
                    BuildList(_) => V::List(Rc::new(RefCell::new(items))),
                    _ => V::Set(Rc::new(RefCell::new(items))),
                });
            }
            BuildMap(n) => {
                let at = f.stack.len() - 2 * n as usize;
                let items = f.stack.split_off(at);
                let d = Rc::new(RefCell::new(Vec::new()));
                let dv = V::Dict(d);
                for pair in items.chunks(2) {
                    self.setitem(&dv, &pair[0], pair[1].clone())?;
                }
                f.stack.push(dv);
            }
            ListAppend(n) | SetAdd(n) => {
                let v = pop!();
                match &f.stack[f.stack.len() - n as usize] {
                    V::List(l) => l.borrow_mut().push(v),
                    V::Set(s) => {
                        if !s.borrow().iter().any(|x| eq(x, &v)) {
                            s.borrow_mut().push(v);
                        }
                    }
                    _ => unreachable!(),
                }
            }
            MapAdd(n) => {
                let key = pop!();
                let value = pop!();
                let d = f.stack[f.stack.len() - n as usize].clone();
                self.setitem(&d, &key, value)?;
            }
            UnpackSequence(n) => {
                let seq = pop!();
                let items = self.iterate(&seq)?;
                if items.len() != n as usize {
                    return Err(self.exc("ValueError", "wrong number of values to unpack"));
                }
                f.stack.extend(items.into_iter().rev());
            }
            Call {
                npos,
                nkw,
                star,
                starstar,
            } => {
                let starstar = if starstar { Some(pop!()) } else { None };
                let star = if star { Some(pop!()) } else { None };
                let at = f.stack.len() - 2 * nkw as usize;
                let kwflat = f.stack.split_off(at);
                let at = f.stack.len() - npos as usize;
                let mut args = f.stack.split_off(at);
                let func = pop!();
                let mut kwargs: Vec<(String, V)> = kwflat
                    .chunks(2)
                    .map(|p| (to_str(&p[0]), p[1].clone()))
                    .collect();
                if let Some(s) = star {
                    args.extend(self.iterate(&s)?);
                }
                if let Some(V::Dict(d)) = starstar {
                    kwargs.extend(d.borrow().iter().map(|(k, v)| (to_str(k), v.clone())));
                }
                let v = self.call(&func, args, kwargs)?;
                f.stack.push(v);
            }
            MakeFunction { ndefaults, closure } => {
                let V::Code(c) = pop!() else { unreachable!() };
                let closure = if closure {
                    match pop!() {
                        V::Tuple(t) => t.to_vec(),
                        _ => unreachable!(),
                    }
                } else {
                    Vec::new()
                };
                let at = f.stack.len() - ndefaults as usize;
                let defaults = f.stack.split_off(at);
                f.stack.push(V::Func(Rc::new(Func {
                    code: c,
                    defaults,
                    closure,
                    globals: f.globals.clone(),
                })));
            }
            BuildClass => {
                let V::Ns(dict) = pop!() else { unreachable!() };
                let bases = pop!();
                let name = pop!();
                let bases = self
                    .iterate(&bases)?
                    .into_iter()
                    .filter_map(|b| if let V::Class(c) = b { Some(c) } else { None })
                    .collect();
                f.stack.push(V::Class(Rc::new(Class {
                    name: to_str(&name),
                    bases,
                    dict,
                })));
            }
            LoadLocals => f
                .stack
                .push(V::Ns(f.ns.clone().expect("class body namespace"))),
            ReturnValue => return Ok(Some(Out::Return(pop!()))),
            YieldValue => return Ok(Some(Out::Yield(pop!()))),
            Jump(t) => f.pc = t as usize,
            PopJumpIfFalse(t) | PopJumpIfTrue(t) => {
                let v = pop!();
                if truthy(&v) == matches!(instr, PopJumpIfTrue(_)) {
                    f.pc = t as usize;
                }
            }
            JumpIfFalseOrPop(t) | JumpIfTrueOrPop(t) => {
                if truthy(f.stack.last().unwrap()) == matches!(instr, JumpIfTrueOrPop(_)) {
                    f.pc = t as usize;
                } else {
                    pop!();
                }
            }
            GetIter => {
                let o = pop!();
                let it = self.get_iter(&o)?;
                f.stack.push(it);
            }
            ForIter(t) => {
                let it = f.stack.last().unwrap().clone();
                match self.next(&it)? {
                    Some(v) => f.stack.push(v),
                    None => {
                        pop!();
                        f.pc = t as usize;
                    }
                }
            }
            SetupExcept(t) => f.blocks.push((t, f.stack.len())),
            PopBlock => {
                f.blocks.pop().expect("block");
            }
            Reraise => {
                let _ty = pop!();
                return Err(pop!());
            }
            Raise(n) => {
                assert_eq!(n, 1, "only `raise X` is exercised here");
                let e = pop!();
                return Err(match e {
                    V::Class(_) => self.call(&e, vec![], vec![])?,
                    other => other,
                });
            }
            ImportName(_) | ImportFrom(_) | ImportStar | Exec(_) => {
                return Err(self.exc("SystemError", "not supported by the test VM"))
            }
            PrintItem { to } => {
                assert!(!to);
                let v = pop!();
                self.print_item(&v);
            }
            PrintNewline { to } => {
                assert!(!to);
                self.out.push('\n');
                self.softspace = false;
            }
        }
        Ok(None)
    }
}

/// Compiles and runs a module; returns what it printed (plus the uncaught exception).
fn run(src: &str) -> String {
    let module = parse_module(FileId(0), src).expect("program parses");
    let compiled = compile_module(&module, "<prog>", src);
    assert!(
        compiled.diagnostics.is_empty(),
        "{:?}",
        compiled.diagnostics
    );
    verify_stack_depth(&compiled.code).expect("stack discipline");
    let mut vm = Vm::new();
    let globals = ns();
    globals
        .borrow_mut()
        .insert("__name__".into(), V::Str(Rc::from("__main__")));
    let func = Func {
        code: compiled.code.clone(),
        defaults: vec![],
        closure: vec![],
        globals,
    };
    let Ok(mut frame) = vm.make_frame(&func, vec![], vec![]) else {
        panic!("module frame")
    };
    if let Err(e) = vm.run(&mut frame) {
        let name = class_of(&e).map(|c| c.name.clone()).unwrap_or_default();
        let args = vm
            .getattr(&e, "args")
            .map(|a| to_str(&a))
            .unwrap_or_default();
        vm.out.push_str(&format!("UNCAUGHT {name}{args}\n"));
    }
    vm.out
}

fn check(src: &str, expected: &str) {
    let got = run(src);
    assert_eq!(
        got, expected,
        "\n--- got ---\n{got}--- expected (CPython 2.7) ---\n{expected}"
    );
}

#[test]
fn finally_and_loops() {
    check(
        r#"def f(xs):
    out = []
    for x in xs:
        try:
            if x == 1:
                continue
            if x == 3:
                break
            out.append(x)
        finally:
            out.append(-x)
    else:
        out.append(100)
    return out
print f([0, 1, 2, 3, 4]), f([0, 1])

def g(n):
    try:
        try:
            return n * 2
        finally:
            print 'inner finally', n
    finally:
        print 'outer finally'
print g(5)

def h():
    for i in range(3):
        try:
            try:
                raise ValueError(i)
            finally:
                if i == 1:
                    break
        except ValueError, e:
            print 'caught', e.args[0]
    return i
print h()

def w(n):
    i = 0
    while True:
        i += 1
        try:
            if i > n:
                return i
            if i % 2:
                continue
        finally:
            print 'tick', i,
        print 'even', i
    print 'unreachable'
print w(3)

def k():
    try:
        return 'try'
    finally:
        return 'finally'
print k()
"#,
        "[0, 0, -1, 2, -2, -3] [0, 0, -1, 100]
inner finally 5
outer finally
10
caught 0
1
tick 1 tick 2 even 2
tick 3 tick 4 4
finally
",
    );
}

#[test]
fn exceptions() {
    check(
        r#"def risky(n):
    if n == 0:
        raise KeyError('k')
    if n == 1:
        raise IndexError('i')
    if n == 2:
        raise ValueError, 'v'
    return n

def catch(n):
    try:
        try:
            r = risky(n)
        except KeyError:
            print 'key'
            raise
        except (IndexError, TypeError), e:
            print 'idx', e.args[0]
            r = -1
        else:
            print 'else'
            r = r + 1
    except LookupError, e:
        print 'outer', e.args[0]
        r = -2
    except:
        print 'anything'
        r = -3
    return r
print catch(0), catch(1), catch(2), catch(5)

def cleanup_order():
    log = []
    try:
        try:
            log.append('body')
            raise ValueError('x')
        except ValueError:
            log.append('handler')
            raise
        finally:
            log.append('finally')
    except ValueError, e:
        log.append('outer:' + e.args[0])
    return log
print cleanup_order()

def reraise_in_loop():
    caught = 0
    for i in range(4):
        try:
            try:
                if i % 2:
                    raise KeyError(i)
            except KeyError:
                if i == 3:
                    raise
                caught += 1
        except KeyError, e:
            print 'escaped', e.args[0]
    return caught
print reraise_in_loop()
"#,
        "key
outer k
-2 idx i
-1 anything
-3 else
6
['body', 'handler', 'finally', 'outer:x']
escaped 3
1
",
    );
}

#[test]
fn with_statements() {
    check(
        r#"class CM(object):
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print 'enter', self.name
        return self.name.upper()
    def __exit__(self, t, v, tb):
        print 'exit', self.name, t is None

def w(flag):
    with CM('a') as x, CM('b') as y:
        print x, y
        if flag == 1:
            return 'ret'
        if flag == 2:
            raise ValueError('boom')
    return 'end'
print w(0)
print w(1)
try:
    w(2)
except ValueError, e:
    print 'caught', e.args[0]
for i in range(3):
    with CM('loop'):
        if i == 1:
            continue
        if i == 2:
            break
        print 'body', i
with CM('module'):
    print 'at module level'
"#,
        "enter a
enter b
A B
exit b True
exit a True
end
enter a
enter b
A B
exit b True
exit a True
ret
enter a
enter b
A B
exit b False
exit a False
caught boom
enter loop
body 0
exit loop True
enter loop
exit loop True
enter loop
exit loop True
enter module
at module level
exit module True
",
    );
}

#[test]
fn scopes_comprehensions_generators_and_calls() {
    check(
        r#"def counter():
    count = [0]
    def inc(k=1):
        count[0] += k
        return count[0]
    return inc
c = counter()
c()
c(5)
print c()
xs = [i * j for i in range(3) for j in range(3) if i != j]
print xs, i, j
def gens(n):
    total = sum(x * x for x in range(n) if x % 2)
    return total
print gens(6)
def fib(n):
    a, b = 0, 1
    while n > 0:
        yield a
        a, b = b, a + b
        n -= 1
print list(fib(8))
sq = {k: k * k for k in range(4)}
print sq[3], len({x % 3 for x in range(10)})
adders = [lambda x, i=i: x + i for i in range(3)]
print [a(10) for a in adders]
def outer(n):
    def middle():
        def inner():
            return n + 1
        return inner()
    return middle()
print outer(41)
G = 0
def bump():
    global G
    G += 1
bump()
bump()
print G
def varargs(a, b=2, *rest, **kw):
    return a, b, rest, kw.get('z', 0)
print varargs(1), varargs(1, 3, 4, 5), varargs(*(7, 8)), varargs(1, z=9), varargs(b=6, a=5)
"#,
        "7
[0, 0, 0, 2, 0, 2] 2 2
35
[0, 1, 1, 2, 3, 5, 8, 13]
9 3
[10, 11, 12]
42
2
(1, 2, (), 0) (1, 3, (4, 5), 0) (7, 8, (), 0) (1, 2, (), 9) (5, 6, (), 0)
",
    );
}

#[test]
fn expressions_slices_and_assignments() {
    check(
        r#"def cmp3(a, b, c):
    return a < b < c, a < b > c, not a, a and b or c
print cmp3(1, 2, 3), cmp3(3, 2, 1), cmp3(0, 5, 4)
def cond(a, b):
    if not a and (b or not a):
        return 'x'
    elif a < b <= 10:
        return 'y'
    return 'z'
print cond(0, 0), cond(1, 5), cond(5, 1), cond(1, 11)
l = range(10)
print l[2:5], l[:3], l[7:], l[::3], l[8:2:-2], l[:]
l[2:5] = ['a']
print l
del l[:3]
print l
l[1:] += [99]
l[:2] *= 2
l[1:3] += ['t']
print l
class O(object):
    pass
o = O()
o.n = 1
o.n += 10
d = {'k': 5}
d['k'] -= 2
a, (b, [c, e]) = 1, (2, [3, 4])
print o.n, d['k'], a + b + c + e
x = 7
x //= 2
print x, 7 / 2, -7 / 2, 2 ** 10, 7 % 3, `x`
print 'no newline',
print 'same line'
assert x == 3
try:
    assert x == 4, 'x is %d' % x
except AssertionError, e:
    print 'assert', e.args[0]
print 1 if x else 2, 3 if not x else 4
print 'ab' in 'xaby', 3 not in [1, 2], None is None, x is not None
"#,
        "(True, False, False, 2) (False, False, False, 2) (False, True, True, 4)
x y z z
[2, 3, 4] [0, 1, 2] [7, 8, 9] [0, 3, 6, 9] [8, 6, 4] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
[0, 1, 'a', 5, 6, 7, 8, 9]
[5, 6, 7, 8, 9]
[5, 6, 5, 't', 6, 7, 8, 9, 99]
11 3 10
3 3 -4 1024 1 3
no newline same line
assert x is 3
1 4
True True True True
",
    );
}

#[test]
fn classes_mangling_and_decorators() {
    check(
        r#"class Base(object):
    kind = 'base'
    def __init__(self, v):
        self.__v = v
    def get(self):
        return self.__v
    def describe(self):
        return '%s:%s' % (self.kind, self.get())
class Derived(Base):
    """Doc."""
    kind = 'derived'
    def get(self):
        return Base.get(self) * 2
print Base(3).describe(), Derived(3).describe(), Derived.__doc__
def make():
    y = 'outer'
    class K(object):
        y = 'class'
        z = y
        def m(self):
            return y
    return K().m(), K.z
print make()
def deco(f):
    def wrapper(*args):
        return 'wrapped', f(*args)
    return wrapper
@deco
def plain(a, b):
    return a + b
print plain(1, 2)
"#,
        "base:3 derived:6 Doc.
('outer', 'class')
('wrapped', 3)
",
    );
}

/// A bare `raise` re-raises the exception most recently caught in the frame (Python 2: a
/// nested handler that caught something else changes it).
#[test]
fn bare_raise_reraises_the_last_caught_exception() {
    check(
        r#"def nested():
    try:
        raise ValueError('a')
    except ValueError:
        try:
            raise KeyError('b')
        except KeyError:
            pass
        raise
try:
    nested()
except Exception, e:
    print type(e).__name__, e.args
def nested2():
    try:
        raise ValueError('a')
    except ValueError:
        try:
            pass
        except KeyError:
            pass
        raise
try:
    nested2()
except Exception, e:
    print type(e).__name__, e.args
def nested3():
    try:
        raise ValueError('a')
    except ValueError:
        for i in range(2):
            try:
                raise KeyError(i)
            except KeyError:
                if i == 1:
                    raise
        raise
try:
    nested3()
except Exception, e:
    print type(e).__name__, e.args
"#,
        "KeyError ('b',)
ValueError ('a',)
KeyError (1,)
",
    );
}

#[test]
fn class_scope_comprehensions_and_nested_try_blocks() {
    check(
        r#"class A(object):
    xs = [1, 2, 3]
    ys = [x * 2 for x in xs]
    zs = list(y + 1 for y in xs)
print A.ys, A.zs, A.x
def combo(n):
    log = []
    for i in range(n):
        try:
            try:
                if i == 1:
                    raise KeyError(i)
                if i == 2:
                    continue
                if i == 4:
                    return log
            except KeyError:
                log.append('k%d' % i)
            else:
                log.append('e%d' % i)
            finally:
                log.append('f%d' % i)
        finally:
            log.append('F')
    return log
print combo(3)
print combo(6)
def gen_finally():
    try:
        yield 1
        yield 2
    finally:
        print 'gen cleanup'
for v in gen_finally():
    print 'got', v
"#,
        "[2, 4, 6] [2, 3, 4] 3
['e0', 'f0', 'F', 'k1', 'f1', 'F', 'f2', 'F']
['e0', 'f0', 'F', 'k1', 'f1', 'F', 'f2', 'F', 'e3', 'f3', 'F', 'f4', 'F']
got 1
got 2
gen cleanup
",
    );
}
