//! Compiler checks other than golden disassembly: spans, diagnostics, the stack-depth
//! verifier (on hand-made bad code and on generated nestings of control flow), string
//! decoding, and the fixture programs.

use rpy_lsp::compiler::bytecode::flags;
use rpy_lsp::compiler::{
    compile_module, verify_stack_depth, CodeObject, Compiled, Const, Instr, UStr,
};
use rpy_lsp::syntax::{parse_module, FileId, Span};
use std::rc::Rc;

fn compile(src: &str) -> Compiled {
    let module = parse_module(FileId(0), src).expect("snippet parses");
    let compiled = compile_module(&module, "<test>", src);
    verify_stack_depth(&compiled.code).unwrap_or_else(|e| panic!("{e}\nsource:\n{src}"));
    compiled
}

fn compile_clean(src: &str) -> Rc<CodeObject> {
    let c = compile(src);
    assert!(
        c.diagnostics.is_empty(),
        "unexpected diagnostics: {:?}",
        c.diagnostics
    );
    c.code
}

/// The nested code object named `name` (depth-first).
fn find_code(code: &Rc<CodeObject>, name: &str) -> Rc<CodeObject> {
    fn walk(code: &Rc<CodeObject>, name: &str) -> Option<Rc<CodeObject>> {
        if &*code.co_name == name {
            return Some(code.clone());
        }
        code.co_consts.iter().find_map(|c| match c {
            Const::Code(c) => walk(c, name),
            _ => None,
        })
    }
    walk(code, name).unwrap_or_else(|| panic!("no code object {name}"))
}

fn text(src: &str, span: Span) -> &str {
    &src[span.start as usize..span.end as usize]
}

/// Source text of the first instruction matching `pred`.
fn span_of<'s>(src: &'s str, code: &CodeObject, pred: impl Fn(&Instr) -> bool) -> &'s str {
    let i = code
        .co_code
        .iter()
        .position(pred)
        .expect("instruction present");
    text(src, code.co_spans[i])
}

#[test]
fn instruction_spans_slice_the_source() {
    let src = "import os\n\n@deco\ndef f(foo, y):\n    return foo.bar(1) + y[2]\n\nfor i in items:\n    print i,\nclass  Klass(Base):\n    pass\n";
    let module = compile_clean(src);
    let f = find_code(&module, "f");
    assert_eq!(
        span_of(src, &f, |i| matches!(i, Instr::LoadAttr(_))),
        "foo.bar"
    );
    assert_eq!(
        span_of(src, &f, |i| matches!(i, Instr::Call { .. })),
        "foo.bar(1)"
    );
    assert_eq!(span_of(src, &f, |i| matches!(i, Instr::Subscr)), "y[2]");
    assert_eq!(
        span_of(src, &f, |i| matches!(i, Instr::Binary(_))),
        "foo.bar(1) + y[2]"
    );
    assert_eq!(
        span_of(src, &f, |i| matches!(i, Instr::ReturnValue)),
        "return foo.bar(1) + y[2]"
    );
    assert_eq!(text(src, f.name_span), "f");
    assert!(text(src, f.span).starts_with("def f(foo, y):"));
    assert_eq!(
        f.co_firstlineno, 3,
        "a decorated function starts at its first decorator"
    );
    assert_eq!(&*f.co_filename, "<test>");

    assert_eq!(
        span_of(src, &module, |i| matches!(i, Instr::ImportName(_))),
        "os"
    );
    assert_eq!(
        span_of(src, &module, |i| matches!(i, Instr::GetIter)),
        "items"
    );
    assert_eq!(
        span_of(src, &module, |i| matches!(i, Instr::ForIter(_))),
        "items"
    );
    assert_eq!(
        span_of(src, &module, |i| matches!(i, Instr::PrintItem { .. })),
        "i"
    );
    assert!(
        span_of(src, &module, |i| matches!(i, Instr::MakeFunction { .. })).starts_with("def f")
    );
    // Decorator application points at the decorator.
    assert_eq!(
        span_of(src, &module, |i| matches!(i, Instr::Call { npos: 1, .. })),
        "deco"
    );

    let k = find_code(&module, "Klass");
    assert_eq!(text(src, k.name_span), "Klass");
    assert_eq!(k.co_firstlineno, 9);
    assert_eq!(text(src, module.span), src);
    assert_eq!(module.co_code.len(), module.co_spans.len());
}

#[test]
fn spans_of_lambda_genexpr_and_handler_names() {
    let src = "g = lambda x: x\nh = (y for y in z)\ntry:\n    pass\nexcept E as err:\n    pass\n";
    let module = compile_clean(src);
    let lam = find_code(&module, "<lambda>");
    assert_eq!(text(src, lam.name_span), "lambda");
    assert_eq!(text(src, lam.span), "lambda x: x");
    let gen = find_code(&module, "<genexpr>");
    assert_eq!(text(src, gen.span), "(y for y in z)");
    assert!(gen.is_generator());
    assert_eq!(gen.co_firstlineno, 2);
    assert_eq!(
        span_of(
            src,
            &module,
            |i| matches!(i, Instr::StoreName(n) if &*module.co_names[*n as usize] == "err")
        ),
        "err"
    );
}

#[test]
fn string_constants_follow_python2() {
    let src = "a = '\\xe9'\nb = u'\\xe9'\nc = 'é'\nd = 'x' \"y\"\n";
    let module = compile_clean(src);
    let consts = &module.co_consts;
    assert!(consts.contains(&Const::Str(Rc::from(&b"\xe9"[..]))));
    assert!(consts.contains(&Const::Unicode(UStr::from("é"))));
    assert!(consts.contains(&Const::Str(Rc::from("é".as_bytes()))));
    assert!(consts.contains(&Const::Str(Rc::from(&b"xy"[..]))));

    let src = "from __future__ import unicode_literals\na = 'x'\nb = b'y'\n";
    let module = compile_clean(src);
    assert!(module.co_consts.contains(&Const::Unicode(UStr::from("x"))));
    assert!(module.co_consts.contains(&Const::Str(Rc::from(&b"y"[..]))));
}

#[test]
fn integer_constants() {
    let module = compile_clean(
        "a = 9223372036854775807\nb = 9223372036854775808\nc = 5L\nd = -9223372036854775808\n",
    );
    let c = &module.co_consts;
    assert!(c.contains(&Const::Int(i64::MAX)));
    assert!(c.contains(&Const::Long(9223372036854775808)));
    assert!(c.contains(&Const::Long(5)));
    assert!(c.contains(&Const::Int(i64::MIN)));
    let huge = compile("x = 1000000000000000000000000000000000000000000000000000\n");
    assert_eq!(huge.diagnostics.len(), 1);
    assert_eq!(huge.diagnostics[0].code, "RPY004");
}

#[test]
fn flags_and_varnames() {
    let src = "from __future__ import division\ndef f(a, b=1, *c, **d):\n    e = 1\n    def g():\n        yield e\n    return g\nclass C:\n    pass\n";
    let module = compile_clean(src);
    assert_eq!(module.co_flags, flags::MODULE | flags::TRUE_DIVISION);
    let f = find_code(&module, "f");
    assert_eq!(
        f.co_flags,
        flags::OPTIMIZED
            | flags::NEWLOCALS
            | flags::VARARGS
            | flags::VARKEYWORDS
            | flags::TRUE_DIVISION
    );
    assert_eq!(f.co_argcount, 2);
    let names: Vec<&str> = f.co_varnames.iter().map(|s| &**s).collect();
    assert_eq!(names, ["a", "b", "c", "d", "g"]);
    assert_eq!(
        f.co_cellvars.iter().map(|s| &**s).collect::<Vec<_>>(),
        ["e"]
    );
    let g = find_code(&module, "g");
    assert!(g.has_flag(flags::GENERATOR) && g.has_flag(flags::NESTED));
    assert_eq!(
        g.co_freevars.iter().map(|s| &**s).collect::<Vec<_>>(),
        ["e"]
    );
    let c = find_code(&module, "C");
    assert!(c.has_flag(flags::CLASS_BODY));
    assert!(!c.has_flag(flags::OPTIMIZED));
}

#[test]
fn functions_in_classes_do_not_see_class_names() {
    let src = "def outer():\n    x = 1\n    class A:\n        x = 2\n        y = x\n        def m(self):\n            return x, y\n    return A\n";
    let module = compile_clean(src);
    let a = find_code(&module, "A");
    // `x` is a class local that is also passed through to `m`.
    assert_eq!(
        a.co_freevars.iter().map(|s| &**s).collect::<Vec<_>>(),
        ["x"]
    );
    assert!(a.co_code.contains(&Instr::LoadName(
        a.co_names.iter().position(|n| &**n == "x").unwrap() as u32
    )));
    let m = find_code(&module, "m");
    assert!(m.co_code.contains(&Instr::LoadDeref(0)));
    let y = m.co_names.iter().position(|n| &**n == "y").unwrap() as u32;
    assert!(m.co_code.contains(&Instr::LoadGlobal(y)));
}

#[test]
fn constant_tests_are_folded() {
    let src = "if 0:\n    import never\nif __debug__:\n    x = 1\nwhile 0:\n    y = 2\n";
    let module = compile_clean(src);
    assert!(!module
        .co_names
        .iter()
        .any(|n| &**n == "never" || &**n == "y"));
    assert!(!module.co_code.iter().any(|i| i.jump_target().is_some()));
}

#[test]
fn unsupported_constructs_report_rpy004_and_still_compile() {
    let cases = [
        "def f():\n    nonlocal x\n",
        "async def f():\n    pass\n",
        "def f():\n    await x\n",
        "x = f'{y}'\n",
        "a, *b = c\n",
        "def f(a, *, b):\n    pass\n",
        "(y := 1)\n",
        "match x:\n    case 1:\n        pass\n",
        "class C(metaclass=M):\n    pass\n",
        "x = [*a]\n",
        "x = {**a}\n",
        "x = a @ b\n",
        "def f():\n    yield from g()\n",
        "raise E from F\n",
        "f(*a, *b)\n",
    ];
    for src in cases {
        let c = compile(src);
        assert!(
            c.diagnostics.iter().any(|d| d.code == "RPY004"),
            "no RPY004 for {src:?}: {:?}",
            c.diagnostics
        );
        for d in &c.diagnostics {
            assert!(d.span.end as usize <= src.len() && d.span.start <= d.span.end);
        }
    }
}

#[test]
fn misplaced_statements_report_rpy001() {
    let cases = [
        ("return 1\n", "'return' outside function"),
        ("class C:\n    return 1\n", "'return' outside function"),
        ("yield 1\n", "'yield' outside function"),
        ("break\n", "'break' outside loop"),
        (
            "def f():\n    continue\n",
            "'continue' not properly in loop",
        ),
        (
            "for x in y:\n    try:\n        pass\n    finally:\n        continue\n",
            "'continue' not supported inside 'finally' clause",
        ),
        (
            "def f():\n    yield 1\n    return 2\n",
            "'return' with argument inside generator",
        ),
        (
            "try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass\n",
            "default 'except:' must be last",
        ),
    ];
    for (src, msg) in cases {
        let c = compile(src);
        assert_eq!(c.diagnostics.len(), 1, "{src:?}: {:?}", c.diagnostics);
        assert_eq!(c.diagnostics[0].code, "RPY001");
        assert_eq!(c.diagnostics[0].message, msg);
    }
}

/// Builds a code object around hand-written instructions for verifier tests.
fn raw_code(code: Vec<Instr>, consts: Vec<Const>) -> CodeObject {
    let n = code.len();
    CodeObject {
        co_name: Rc::from("raw"),
        co_filename: Rc::from("<raw>"),
        co_firstlineno: 1,
        co_argcount: 0,
        co_flags: 0,
        co_code: code,
        co_consts: consts,
        co_names: vec![Rc::from("x")],
        co_varnames: vec![],
        co_cellvars: vec![],
        co_freevars: vec![],
        co_spans: vec![Span::default(); n],
        span: Span::default(),
        name_span: Span::default(),
        docstring: None,
    }
}

#[test]
fn verifier_rejects_bad_code() {
    use Instr::*;
    let none = vec![Const::None];
    // Underflow.
    assert!(verify_stack_depth(&raw_code(
        vec![PopTop, LoadConst(0), ReturnValue],
        none.clone()
    ))
    .is_err());
    // Inconsistent depth at a join.
    let bad_join = vec![
        LoadConst(0),
        PopJumpIfFalse(4),
        LoadConst(0),
        Jump(4),
        LoadConst(0),
        ReturnValue,
    ];
    assert!(verify_stack_depth(&raw_code(bad_join, none.clone())).is_err());
    // Falling off the end.
    assert!(verify_stack_depth(&raw_code(vec![LoadConst(0), PopTop], none.clone())).is_err());
    // PopBlock without a block; jumping out of a handler region without PopBlock.
    assert!(verify_stack_depth(&raw_code(
        vec![PopBlock, LoadConst(0), ReturnValue],
        none.clone()
    ))
    .is_err());
    let leaky = vec![
        SetupExcept(3),
        Jump(4),
        Nop,
        Reraise,
        LoadConst(0),
        ReturnValue,
    ];
    assert!(
        verify_stack_depth(&raw_code(leaky, none.clone())).is_ok(),
        "4 only reached from one state"
    );
    let bad_blocks = vec![
        LoadConst(0),
        PopJumpIfFalse(4),
        SetupExcept(7),
        Jump(4),
        LoadConst(0),
        ReturnValue,
        Nop,
        Reraise,
    ];
    assert!(verify_stack_depth(&raw_code(bad_blocks, none.clone())).is_err());
    // Operand out of range; MakeFunction without its code constant.
    assert!(verify_stack_depth(&raw_code(vec![LoadConst(3), ReturnValue], none.clone())).is_err());
    let no_code = vec![
        LoadConst(0),
        MakeFunction {
            ndefaults: 0,
            closure: false,
        },
        ReturnValue,
    ];
    assert!(verify_stack_depth(&raw_code(no_code, none.clone())).is_err());
    // A correct loop.
    let good = vec![
        LoadName(0),
        GetIter,
        ForIter(5),
        PopTop,
        Jump(2),
        LoadConst(0),
        ReturnValue,
    ];
    verify_stack_depth(&raw_code(good, none)).unwrap();
}

/// Every combination of nested control-flow constructs with every kind of exit compiles to
/// code with a consistent stack and block stack.
#[test]
fn generated_control_flow_nestings_verify() {
    // (lines before the nested body, lines after it); the body is indented one level.
    let wrappers: &[(&[&str], &[&str])] = &[
        (&["for i in xs:"], &[]),
        (&["while c:"], &["else:", "    pass"]),
        (&["try:"], &["except E, e:", "    pass"]),
        (&["try:"], &["finally:", "    fin()"]),
        (&["try:", "    pass", "except E:"], &["    raise"]),
        (&["with m as v:"], &[]),
        (&["try:", "    pass", "finally:"], &[]),
        (&["if c:"], &["else:", "    x = 1"]),
        (&["for i in xs:", "    pass", "else:"], &[]),
        (&["try:", "    pass", "except:", "    pass", "else:"], &[]),
    ];
    let leaves = [
        "break",
        "continue",
        "return x",
        "raise",
        "pass",
        "return",
        "x = [y for y in xs]",
        "yield x",
    ];
    fn wrap(w: &(&[&str], &[&str]), inner: &[String]) -> Vec<String> {
        let mut out: Vec<String> = w.0.iter().map(|l| l.to_string()).collect();
        out.extend(inner.iter().map(|l| format!("    {l}")));
        out.extend(w.1.iter().map(|l| l.to_string()));
        out
    }
    let mut count = 0;
    for a in wrappers {
        for b in wrappers {
            for c in wrappers {
                for leaf in leaves {
                    let body = wrap(a, &wrap(b, &wrap(c, &[leaf.to_string()])));
                    let mut src = String::from("def f(xs, c, m, E):\n    x = 0\n");
                    for l in body {
                        src.push_str("    ");
                        src.push_str(&l);
                        src.push('\n');
                    }
                    src.push_str("    return x\n");
                    let module =
                        parse_module(FileId(0), &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
                    let compiled = compile_module(&module, "<gen>", &src);
                    verify_stack_depth(&compiled.code).unwrap_or_else(|e| panic!("{e}\n{src}"));
                    for d in &compiled.diagnostics {
                        assert_eq!(d.code, "RPY001", "{d:?}\n{src}");
                    }
                    count += 1;
                }
            }
        }
    }
    assert_eq!(count, 10 * 10 * 10 * 8);
}

#[test]
fn fixture_programs_compile_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut compiled_any = false;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "py") {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(module) = parse_module(FileId(0), &src) else {
            continue;
        };
        let c = compile_module(&module, &path.to_string_lossy(), &src);
        verify_stack_depth(&c.code).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            c.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            c.diagnostics
        );
        compiled_any = true;
    }
    assert!(compiled_any || !dir.exists());
}
