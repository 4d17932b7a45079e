//! End-to-end tests of the annotator: small programs are imported with the concrete object
//! space, `entry_point` is annotated with `[list of str]`, and the tests check the annotation
//! of results and the diagnostics (code and line).

use rpy_lsp::annotator::{annotate_standalone, AnnotatedProgram, SomeValue};
use rpy_lsp::engine::program::Program;
use rpy_lsp::objspace::LoaderConfig;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Run {
    program: Program,
    ann: Option<AnnotatedProgram>,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn run(src: &str) -> Run {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("rpy_ann_e2e_{}_{}", std::process::id(), n));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("prog.py");
    let full = format!(
        "{}\n\ndef target(*args):\n    return entry_point, None\n",
        src
    );
    std::fs::write(&path, full).unwrap();
    let mut program = Program::load(&path, LoaderConfig::default());
    let ann = program
        .entry
        .map(|e| annotate_standalone(&mut program.space, e));
    Run { program, ann }
}

impl Run {
    fn ann(&self) -> &AnnotatedProgram {
        self.ann.as_ref().expect("entry point found")
    }

    /// (line, code, message) of every error and warning, import time included.
    fn diags(&self) -> Vec<(u32, &'static str, String)> {
        let sources = &self.program.space.sources;
        let mut all = self.program.all_diagnostics();
        if let Some(a) = &self.ann {
            all.extend(a.diagnostics.iter().cloned());
        }
        all.iter()
            .map(|d| {
                let line = if (d.span.file.0 as usize) < sources.len() {
                    sources.get(d.span.file).line_col(d.span.start).line + 1
                } else {
                    0
                };
                (line, d.code, d.message.clone())
            })
            .collect()
    }

    fn errors(&self) -> Vec<(u32, &'static str)> {
        let mut all = self.program.all_diagnostics();
        if let Some(a) = &self.ann {
            all.extend(a.diagnostics.iter().cloned());
        }
        let sources = &self.program.space.sources;
        all.iter()
            .filter(|d| d.is_error())
            .map(|d| {
                (
                    sources.get(d.span.file).line_col(d.span.start).line + 1,
                    d.code,
                )
            })
            .collect()
    }

    fn assert_clean(&self) {
        let e = self.errors();
        assert!(e.is_empty(), "unexpected errors: {:?}", self.diags());
    }

    fn assert_error(&self, line: u32, code: &str) {
        assert!(
            self.errors().iter().any(|(l, c)| *l == line && *c == code),
            "expected {} at line {}, got {:?}",
            code,
            line,
            self.diags()
        );
    }

    /// The annotation of the return value of the function `name`, described.
    fn returns(&self, name: &str) -> String {
        let ann = self.ann();
        let heap = &self.program.space.heap;
        for (i, g) in ann.graphs.iter().enumerate() {
            if &*g.name == name {
                let s = ann
                    .return_annotation(i)
                    .cloned()
                    .unwrap_or(SomeValue::Impossible);
                return ann.describe(heap, &s);
            }
        }
        panic!("no graph named {}", name)
    }

    fn returns_form(&self, name: &str) -> String {
        let ann = self.ann();
        let heap = &self.program.space.heap;
        for (i, g) in ann.graphs.iter().enumerate() {
            if &*g.name == name {
                let s = ann
                    .return_annotation(i)
                    .cloned()
                    .unwrap_or(SomeValue::Impossible);
                return ann.annotator_form(heap, &s);
            }
        }
        panic!("no graph named {}", name)
    }
}

#[test]
fn union_conflict_points_at_the_second_type() {
    let r = run("def describe(n):\n    if n > 10:\n        result = n * 2\n    else:\n        result = \"small\"\n    return result\n\ndef entry_point(argv):\n    print describe(len(argv))\n    return 0");
    r.assert_error(5, "RPY201");
    let d = r
        .ann()
        .diagnostics
        .iter()
        .find(|d| d.code == "RPY201")
        .unwrap();
    // Each path returns its own constant (the paths meet only at the return block, as in
    // the reference): the message is about the function's result.
    assert!(
        d.message.contains("`result`") || d.message.contains("`describe` returns"),
        "{}",
        d.message
    );
    // the label points at the other assignment
    let sources = &r.program.space.sources;
    let lines: Vec<u32> = d
        .labels
        .iter()
        .map(|l| sources.get(l.span.file).line_col(l.span.start).line + 1)
        .collect();
    assert_eq!(lines, vec![3]);
}

#[test]
fn implicit_none_return_is_reported_at_the_end_of_the_path() {
    let r = run("def sign(n):\n    if n > 0:\n        return 1\n    elif n < 0:\n        return -1\n    else:\n        print \"zero\"\n\ndef entry_point(argv):\n    return sign(len(argv) - 2)");
    r.assert_error(7, "RPY201");
}

#[test]
fn none_with_pointers_and_narrowing() {
    let r = run(
        "class Node(object):\n    def __init__(self, v):\n        self.v = v\n\ndef find(argv):\n    if len(argv) > 1:\n        return Node(len(argv))\n    return None\n\ndef get(n):\n    if n is not None:\n        return n.v\n    return 0\n\ndef kind(x):\n    if isinstance(x, Node):\n        return x\n    return None\n\ndef entry_point(argv):\n    n = find(argv)\n    print kind(n)\n    return get(n)",
    );
    r.assert_clean();
    assert_eq!(r.returns("find"), "instance of Node or None");
    assert_eq!(r.returns("get"), "int, non-negative");
    assert_eq!(
        r.returns_form("find"),
        "SomeInstance(can_be_None=True, classdef=Node)"
    );
}

#[test]
fn containers_describe_their_items() {
    let r = run("def names(argv):\n    out = []\n    for a in argv:\n        out.append(a)\n    return out\n\ndef table():\n    d = {}\n    d[\"ab\"] = 1.5\n    return d\n\ndef entry_point(argv):\n    print len(names(argv)), len(table())\n    return 0");
    r.assert_clean();
    assert_eq!(r.returns("names"), "list of str, resizable");
    assert_eq!(r.returns("table"), "dict of str to float");
    assert_eq!(r.returns("entry_point"), "int, non-negative");
}

#[test]
fn attributes_read_through_a_base_are_shared() {
    let r = run("class A(object):\n    pass\n\nclass B(A):\n    def __init__(self):\n        self.x = 1\n\nclass C(A):\n    def __init__(self):\n        self.x = 2.5\n\ndef get(a):\n    return a.x\n\ndef entry_point(argv):\n    t = 0.0\n    for a in [B(), C()]:\n        t += get(a)\n    print t\n    return 0");
    r.assert_clean();
    assert_eq!(r.returns("get"), "float");
    // attributes used only on subclasses stay separate: int and str are fine
    let r = run("class A(object):\n    pass\n\nclass B(A):\n    def __init__(self):\n        self.x = 1\n\nclass C(A):\n    def __init__(self):\n        self.x = \"s\"\n\ndef entry_point(argv):\n    print B().x, C().x\n    return 0");
    r.assert_clean();
    let r = run("class A(object):\n    pass\n\nclass B(A):\n    def __init__(self):\n        self.x = 1\n\nclass C(A):\n    def __init__(self):\n        self.x = \"s\"\n\ndef get(a):\n    return a.x\n\ndef entry_point(argv):\n    print get(B()), get(C())\n    return 0");
    assert!(
        r.errors().iter().any(|(_, c)| *c == "RPY203"),
        "{:?}",
        r.diags()
    );
}

#[test]
fn missing_attribute_names_the_subclass_that_has_it() {
    let r = run("class Animal(object):\n    def __init__(self, name):\n        self.name = name\n\nclass Dog(Animal):\n    tricks = 3\n\ndef show(a):\n    return a.tricks\n\ndef entry_point(argv):\n    return show(Animal(argv[0]))");
    r.assert_error(9, "RPY204");
    let d = r
        .ann()
        .diagnostics
        .iter()
        .find(|d| d.code == "RPY204")
        .unwrap();
    assert!(d.message.contains("Dog"), "{}", d.message);
}

#[test]
fn specializations_get_their_own_graphs() {
    let r = run("from rpython.rlib.objectmodel import specialize\n\n@specialize.argtype(0)\ndef double(x):\n    return x + x\n\n@specialize.memo()\ndef code_of(cls):\n    return cls.code * 10\n\nclass Red(object):\n    code = 1\n\nclass Blue(object):\n    code = 2\n\ndef entry_point(argv):\n    print double(len(argv)), double(argv[0]), double(1.5), code_of(Red) + code_of(Blue)\n    return 0");
    r.assert_clean();
    let ann = r.ann();
    let n = ann.graphs.iter().filter(|g| &*g.name == "double").count();
    assert_eq!(n, 3);
    assert!(
        !ann.graphs.iter().any(|g| &*g.name == "code_of"),
        "memo functions run at translation time"
    );
}

#[test]
fn generators_yield_one_type() {
    let r = run("def count(n):\n    i = 0\n    while i < n:\n        yield i\n        i += 1\n\ndef entry_point(argv):\n    t = 0\n    for x in count(len(argv)):\n        t += x\n    return t");
    r.assert_clean();
    assert_eq!(r.returns("entry_point"), "int, non-negative");
    let r = run("def toks(s):\n    for c in s:\n        if c.isdigit():\n            yield ord(c)\n        else:\n            yield c\n\ndef entry_point(argv):\n    n = 0\n    for t in toks(argv[0]):\n        n += 1\n    return n");
    r.assert_error(6, "RPY201");
}

#[test]
fn entry_point_must_return_an_int() {
    let r = run("def entry_point(argv):\n    if len(argv) > 1:\n        return argv[1]\n    return \"none\"");
    r.assert_error(3, "RPY215");
}

#[test]
fn prebuilt_mutation_is_a_warning_and_instances_are_fine() {
    let r = run("HISTORY = [0]\n\ndef entry_point(argv):\n    HISTORY.append(len(argv))\n    return len(HISTORY)");
    r.assert_clean();
    assert!(
        r.diags().iter().any(|(l, c, _)| *l == 4 && *c == "RPY212"),
        "{:?}",
        r.diags()
    );
    let r = run("class S(object):\n    def __init__(self):\n        self.items = [0]\n\nSTATE = S()\n\ndef entry_point(argv):\n    STATE.items.append(len(argv))\n    return len(STATE.items)");
    assert!(r.diags().is_empty(), "{:?}", r.diags());
}

#[test]
fn special_methods_are_not_honoured() {
    let r = run("class V(object):\n    def __init__(self, x):\n        self.x = x\n    def __add__(self, o):\n        return V(self.x + o.x)\n\ndef entry_point(argv):\n    v = V(1) + V(2)\n    return v.x");
    r.assert_error(8, "RPY205");
    assert!(
        r.diags().iter().any(|(l, c, _)| *l == 4 && *c == "RPY214"),
        "{:?}",
        r.diags()
    );
}

#[test]
fn string_formatting_rules() {
    let ok = run("class P(object):\n    pass\n\ndef entry_point(argv):\n    print \"%s %d %x %o %f %r %%\" % (argv[0], 1, 2, 3, 1.5, P())\n    return 0");
    ok.assert_clean();
    for (src, line) in [
        (
            "def entry_point(argv):\n    print \"%5d\" % len(argv)\n    return 0",
            2,
        ),
        (
            "def entry_point(argv):\n    print argv[0] % len(argv)\n    return 0",
            2,
        ),
        (
            "def entry_point(argv):\n    print \"%s %s\" % (argv[0],)\n    return 0",
            2,
        ),
        (
            "def entry_point(argv):\n    print u\"%s\" % argv[0]\n    return 0",
            2,
        ),
        (
            "def entry_point(argv):\n    print \"%r\" % len(argv)\n    return 0",
            2,
        ),
    ] {
        run(src).assert_error(line, "RPY208");
    }
}

#[test]
fn slices_need_non_negative_bounds() {
    let ok = run("def f(s, i):\n    if i >= 0:\n        return s[i:]\n    return s\n\ndef g(l, n):\n    assert n >= 0\n    return l[n:]\n\ndef entry_point(argv):\n    print f(argv[0], len(argv) - 3), len(g(argv, len(argv) - 1)), argv[0][:-1]\n    return 0");
    ok.assert_clean();
    run("def entry_point(argv):\n    n = len(argv) - 2\n    return len(argv[n:])")
        .assert_error(3, "RPY209");
    run("def entry_point(argv):\n    return len(argv[:-2])").assert_error(2, "RPY209");
}

#[test]
fn class_attributes_are_constants() {
    let r = run("class Config(object):\n    verbose = False\n\ndef entry_point(argv):\n    Config.verbose = True\n    return 0");
    r.assert_error(5, "RPY213");
}

#[test]
fn overrides_must_accept_the_same_arguments() {
    let r = run("class Shape(object):\n    def area(self, scale):\n        return 0\n\nclass Square(Shape):\n    def area(self, scale, extra):\n        return extra\n\ndef total(shapes):\n    t = 0\n    for s in shapes:\n        t += s.area(2)\n    return t\n\ndef entry_point(argv):\n    return total([Shape(), Square()])");
    r.assert_error(12, "RPY206");
    let d = r
        .ann()
        .diagnostics
        .iter()
        .find(|d| d.code == "RPY206")
        .unwrap();
    let sources = &r.program.space.sources;
    assert!(
        d.labels
            .iter()
            .any(|l| sources.get(l.span.file).line_col(l.span.start).line + 1 == 6),
        "{:?}",
        d.labels
    );
}

#[test]
fn independent_errors_are_all_reported_once() {
    let r = run("def a(n):\n    return \"x\" + n\n\ndef b(n):\n    return len(n)\n\ndef entry_point(argv):\n    t = 0\n    for i in range(3):\n        a(i)\n        a(i)\n    b(len(argv))\n    return t");
    let errs = r.errors();
    assert!(errs.contains(&(2, "RPY205")), "{:?}", r.diags());
    assert!(errs.contains(&(5, "RPY205")), "{:?}", r.diags());
    assert_eq!(errs.len(), 2, "{:?}", r.diags());
}

#[test]
fn an_error_does_not_cascade() {
    // `x` is poisoned by the first error; using it does not report more errors.
    let r = run("def f(n, s):\n    if n > 1:\n        x = n\n    else:\n        x = s\n    y = x + 1\n    z = y * 2\n    return len(z)\n\ndef entry_point(argv):\n    f(len(argv), argv[0])\n    return 0");
    assert_eq!(r.errors(), vec![(5, "RPY201")], "{:?}", r.diags());
}

#[test]
fn flow_errors_are_included() {
    let r = run("def f(n):\n    g = lambda x: x + n\n    return g(1)\n\ndef entry_point(argv):\n    return f(len(argv))");
    assert!(
        r.errors().iter().any(|(_, c)| *c == "RPY101"),
        "{:?}",
        r.diags()
    );
}

#[test]
fn builtins_and_methods() {
    let r = run("import os\nfrom rpython.rlib.rarithmetic import r_uint, intmask\n\ndef entry_point(argv):\n    x = r_uint(len(argv)) * r_uint(3)\n    s = \",\".join(argv)\n    parts = s.split(\",\")\n    d = {}\n    for i, p in enumerate(parts):\n        d[p] = i\n    os.write(1, s.upper() + str(intmask(x)) + \"\\n\")\n    return max(len(d), 0)");
    r.assert_clean();
    run("def entry_point(argv):\n    return sum([len(a) for a in argv])").assert_error(2, "RPY210");
    run("def entry_point(argv):\n    l = [len(a) for a in argv]\n    l.sort()\n    return l[0]")
        .assert_error(3, "RPY210");
    run("import os\n\ndef entry_point(argv):\n    os.write(1, len(argv))\n    return 0")
        .assert_error(4, "RPY218");
}

#[test]
fn errors_inside_bundled_models_point_at_the_user_call() {
    let r = run("from rpython.rlib import rstring\n\ndef entry_point(argv):\n    parts = rstring.split(argv[0], 5)\n    return len(parts)");
    let errs = r.errors();
    assert!(!errs.is_empty());
    assert!(errs.iter().all(|(l, _)| *l == 4), "{:?}", r.diags());
}

#[test]
fn r_dict_is_a_dict_with_custom_keys() {
    let r = run("from rpython.rlib.objectmodel import r_dict, compute_hash\n\ndef eq(a, b):\n    return a.lower() == b.lower()\n\ndef h(a):\n    return compute_hash(a.lower())\n\ndef entry_point(argv):\n    d = r_dict(eq, h)\n    d[argv[0]] = 3\n    return d[\"x\"] + len(d)");
    r.assert_clean();
    assert_eq!(r.returns("eq"), "bool");
}

/// Whole-program annotation of a generated program of about 10,000 lines stays fast (the
/// budget is 200 ms in release builds; debug builds get more slack).
#[test]
fn annotates_ten_thousand_lines() {
    let n = 360;
    let mut src = String::from("from rpython.rlib.rarithmetic import intmask\n");
    for i in 0..n {
        let prev = if i > 0 { i - 1 } else { 0 };
        src.push_str(&format!(
            r#"
class Node{i}(object):
    def __init__(self, value, name):
        self.value = value
        self.name = name
        self.children = []

    def add(self, child):
        self.children.append(child)
        return len(self.children)


def work{i}(argv, n):
    total = 0
    names = {{}}
    node = Node{i}(n, "node{i}")
    for j in range(n):
        if j % 3 == 0:
            total += j * 2
        elif j % 3 == 1:
            total -= len(argv)
        else:
            s = "%d:%s" % (j, node.name)
            names[s] = j
    for k, v in names.items():
        total += v + len(k)
    node.add(Node{i}(total, "child"))
    if total > 100:
        return intmask(total * {m})
    if n > 0 and {i} > 0:
        return total + work{prev}(argv, n - 1)
    return total
"#,
            i = i,
            m = i + 1,
            prev = prev
        ));
    }
    src.push_str("\ndef entry_point(argv):\n    t = 0\n");
    for i in 0..n {
        src.push_str(&format!("    t += work{}(argv, len(argv))\n", i));
    }
    src.push_str("    print t\n    return 0\n");
    assert!(
        src.lines().count() >= 10_000,
        "{} lines",
        src.lines().count()
    );
    let dir = std::env::temp_dir().join(format!("rpy_ann_perf_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.py");
    std::fs::write(
        &path,
        format!(
            "{}\n\ndef target(*args):\n    return entry_point, None\n",
            src
        ),
    )
    .unwrap();
    let mut program = Program::load(&path, LoaderConfig::default());
    let entry = program.entry.expect("entry point");
    let start = std::time::Instant::now();
    let ann = annotate_standalone(&mut program.space, entry);
    let elapsed = start.elapsed();
    assert!(
        !ann.has_errors(),
        "{:?}",
        ann.diagnostics
            .iter()
            .map(|d| &d.message)
            .take(3)
            .collect::<Vec<_>>()
    );
    assert!(ann.graphs.len() > 3 * n, "{} graphs", ann.graphs.len());
    // The speed target is a benchmark (benches/flow.sh), not a timed test: only print it.
    eprintln!(
        "annotated {} lines, {} graphs in {:?}",
        src.lines().count(),
        ann.graphs.len(),
        elapsed
    );
}

/// Prints the annotator's diagnostics for the programs listed in `RPY_PROBE`
/// (comma-separated paths); a tool for comparing with the reference by hand:
/// `RPY_PROBE=a.py,b.py cargo test --test annotator_e2e probe -- --ignored --nocapture`.
#[test]
#[ignore]
fn probe() {
    let Ok(list) = std::env::var("RPY_PROBE") else {
        return;
    };
    for p in list.split(',').filter(|p| !p.is_empty()) {
        let mut program = Program::load(std::path::Path::new(p), LoaderConfig::default());
        let mut all = program.all_diagnostics();
        let mut ret = String::new();
        if let Some(e) = program.entry {
            let ann = annotate_standalone(&mut program.space, e);
            if let Some(g) = ann.entry_graph {
                ret = ann
                    .return_annotation(g)
                    .map(|s| ann.describe(&program.space.heap, s))
                    .unwrap_or_default();
            }
            all.extend(ann.diagnostics);
        }
        let sources = &program.space.sources;
        let errs: Vec<String> = all
            .iter()
            .map(|d| {
                let line = if (d.span.file.0 as usize) < sources.len() {
                    sources.get(d.span.file).line_col(d.span.start).line + 1
                } else {
                    0
                };
                format!("{}:{} {}", line, d.code, d.message)
            })
            .collect();
        println!(
            "{} -> returns [{}] {}",
            p,
            ret,
            if errs.is_empty() {
                "OK".to_string()
            } else {
                errs.join(" || ")
            }
        );
    }
}
