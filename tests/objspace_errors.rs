//! Import-time failures become diagnostics at the right place.
mod objspace_common;
use objspace_common::*;
use rpy_lsp::objspace::object::Value;
use rpy_lsp::objspace::{LoaderConfig, ObjSpace};
use std::path::PathBuf;

#[test]
fn division_by_zero_at_module_level_is_rpy003() {
    let (sp, m) = run("A = 1\nB = 2\nX = 1 / 0\nC = 3\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:3: exception at import time: ZeroDivisionError: integer division or modulo by zero"]
    );
    // The module keeps what was computed before the failure.
    assert_eq!(sp.module_attr(m, "B"), Some(Value::Int(2)));
    assert_eq!(sp.module_attr(m, "C"), None);
}

#[test]
fn exception_in_called_function_points_at_raise() {
    let (sp, _) = run("def f(x):\n    return {}[x]\n\ndef g():\n    return f('k')\n\nY = g()\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:2: exception at import time: KeyError: 'k'"]
    );
}

#[test]
fn exception_in_bundled_code_points_at_user_call() {
    let (sp, _) = run("from rpython.rlib.debug import check_nonneg\n\nX = check_nonneg(-1)\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:3: exception at import time: AssertionError"]
    );
}

#[test]
fn a_module_found_nowhere_is_one_rpy007_warning_and_unknown() {
    let (sp, m) = run("import os\nimport no_such_module\nX = no_such_module.f(1).g\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY007 main.py:2: the module `no_such_module` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked"]
    );
    let x = sp.module_attr(m, "X").unwrap();
    assert_eq!(sp.unknown_name(x).as_deref(), Some("no_such_module.f().g"));
    // A module of `rpython` rpy-lsp does not model, and a name a partial model lacks.
    let (sp, _) = run("from rpython.rlib.rmmap import x\nfrom os import no_such_name\n");
    let d = describe(&sp);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(
        d[0].starts_with("RPY007 main.py:1: the module `rpython.rlib.rmmap`"),
        "{d:?}"
    );
    assert!(
        d[1].starts_with("RPY007 main.py:2: the name `os.no_such_name`"),
        "{d:?}"
    );
    // A module rpython 0.2.1's `rpython.rlib` does not have: the reference's ImportError.
    let (sp, _) = run("from rpython.rlib.nonexistent import x\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY002 main.py:1: ImportError: No module named nonexistent: `rpython.rlib.nonexistent` does not exist in the reference's rpython (0.2.1)"]
    );
}

#[test]
fn cannot_import_name_is_rpy003() {
    // `math` is modelled completely: a name it lacks is an error.
    let (sp, _) = run("from math import no_such_name\n");
    assert_eq!(describe(&sp), vec!["RPY003 main.py:1: exception at import time: ImportError: cannot import name no_such_name"]);
}

#[test]
fn syntax_error_is_rpy001() {
    let mut config = LoaderConfig::default();
    let path = PathBuf::from("/virtual/prog/main.py");
    config
        .overlays
        .insert(path.clone(), "x = 1\ndef f(:\n    return 1\n".into());
    let mut sp = ObjSpace::new(config);
    let r = sp.import_main(&path);
    let err = r.unwrap_err();
    assert_eq!(err.code, "RPY001");
    assert_eq!(
        sp.sources.get(err.span.file).line_col(err.span.start).line,
        1
    );
    // Returned, not also kept in `diagnostics`.
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
}

#[test]
fn unsupported_constructs_are_rpy004() {
    // A construct the model lacks stops the module with a warning (what it would define is
    // unknown), not an error.
    // (`locals()` in a function with a cell, which a closure reads)
    let (sp, _) = run(
        "X = 1\ndef f():\n    y = 1\n    def g():\n        return y\n    return locals()\nL = f()\nZ = 3\n",
    );
    let d = describe(&sp);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].starts_with("RPY007 main.py:6: "), "{d:?}");
    assert!(sp.import_stopped_unknown, "{d:?}");
    // without cells it is a dict of the function's bound variables
    let (sp, m) = run("def f(a):\n    b = a + 1\n    return locals()['b']\nB = f(1)\n");
    assert!(describe(&sp).is_empty(), "{:?}", describe(&sp));
    assert_eq!(sp.module_attr(m, "B"), Some(Value::Int(2)));
    // `exec` with a locals mapping of its own is modelled: the names land in it.
    let (sp, m) = run("g = {}\nl = {}\nexec 'y = 2' in g, l\nY = l['y']\n");
    assert!(describe(&sp).is_empty(), "{:?}", describe(&sp));
    assert_eq!(sp.module_attr(m, "Y"), Some(Value::Int(2)));
    // Generated code runs on the model: `exec` of a string, of compile()'s code object.
    let (sp, m) = run("exec 'y = 2'\nns = {'y': y}\nexec compile('z = y + 1', '<g>', 'exec') in ns\nZ = ns['z']\n");
    assert!(describe(&sp).is_empty(), "{:?}", describe(&sp));
    assert_eq!(sp.module_attr(m, "y"), Some(Value::Int(2)));
    assert_eq!(sp.module_attr(m, "Z"), Some(Value::Int(3)));

    // A metaclass deriving from `type` is modelled; anything else is not.
    let (sp, m) = run("class Meta(type):\n    def __init__(cls, name, bases, d):\n        cls.y = 2\nclass A(object):\n    __metaclass__ = Meta\n    x = 1\nY = A.x + A.y\n");
    assert!(describe(&sp).is_empty(), "{:?}", describe(&sp));
    assert_eq!(sp.module_attr(m, "Y"), Some(Value::Int(3)));
    let (sp, m) = run("class A(object):\n    __metaclass__ = 42\n    x = 1\nY = A.x\n");
    let d = describe(&sp);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("RPY004 main.py:1: `__metaclass__`"),
        "{d:?}"
    );
    assert_eq!(sp.module_attr(m, "Y"), Some(Value::Int(1)));
}

#[test]
fn runaway_recursion_and_loops_are_stopped() {
    let (sp, _) = run("def f(n):\n    return f(n + 1)\nf(0)\n");
    let d = describe(&sp);
    assert_eq!(d, vec!["RPY003 main.py:2: exception at import time: RuntimeError: maximum recursion depth exceeded"]);

    let mut config = LoaderConfig::default();
    let path = PathBuf::from("/virtual/prog/main.py");
    config
        .overlays
        .insert(path.clone(), "n = 0\nwhile True:\n    n += 1\n".into());
    let mut sp = ObjSpace::new(config);
    sp.max_steps = 10_000;
    sp.import_main(&path).unwrap();
    let d = describe(&sp);
    assert_eq!(d.len(), 1);
    assert!(d[0].starts_with("RPY004 main.py:"), "{d:?}");
    assert!(d[0].contains("endless loop"), "{d:?}");
}

#[test]
fn endless_loop_on_an_unknown_stops_before_the_time_budget() {
    // The reference's `_test_thread.py`: threads (unmodelled) would empty the list; the
    // loop takes the same path on its unknown truth until the branch limit, long before
    // the CPU-time budget, and the rest of the module is unknown.
    let src = "import thread\nclass L(list):\n    pass\nrunning = L()\nthread.start_new_thread(len, ())\nwhile running:\n    pass\nDONE = 1\n";
    let started = std::time::Instant::now();
    let (sp, m) = run(src);
    let d = describe(&sp);
    assert!(
        d.iter().any(|l| l.starts_with("RPY007 main.py:6:")
            && l.contains("branches on values rpy-lsp does not model")),
        "{d:?}"
    );
    assert!(
        !d.iter().any(|l| l.contains("seconds of CPU time")),
        "{d:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    assert_eq!(sp.module_attr(m, "DONE"), None);
}

#[test]
fn caught_import_errors_leave_no_diagnostic() {
    // An import found nowhere does not fail (it is unknown, with its one warning): the
    // `except ImportError:` fallback does not run.
    let (sp, m) = run("try:\n    import missing_a\n    OK = 1\nexcept ImportError:\n    OK = 0\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    pass\n");
    let d = describe(&sp);
    assert!(
        d.len() == 1 && d[0].starts_with("RPY007 main.py:2:"),
        "{d:?}"
    );
    assert_eq!(sp.module_attr(m, "OK"), Some(Value::Int(1)));
}

#[test]
fn raising_non_exceptions_and_bad_calls() {
    let (sp, _) = run("raise 'text'\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:1: exception at import time: TypeError: exceptions must be old-style classes or derived from BaseException, not str"]
    );
    let (sp, _) = run("def f(a, b):\n    pass\nf(1)\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:3: exception at import time: TypeError: f() takes exactly 2 arguments (1 given)"]
    );
    let (sp, _) = run("x = 'a' + 1\n");
    assert_eq!(
        describe(&sp),
        vec!["RPY003 main.py:1: exception at import time: TypeError: cannot concatenate 'str' and 'int' objects"]
    );
    let (sp, _) = run("x = len(5)\n");
    assert_eq!(describe(&sp), vec!["RPY003 main.py:1: exception at import time: TypeError: object of type 'int' has no len()"]);
}

#[test]
fn target_can_be_called_with_a_driver() {
    let (mut sp, m) = run_ok(
        "def entry_point(argv):\n    return 0\n\ndef target(driver, args):\n    driver.exe_name = 'x-%(backend)s'\n    return entry_point, None\n",
    );
    let target = sp.module_attr(m, "target").unwrap();
    let driver = sp.make_driver();
    let args = sp.new_list(vec![]);
    let r = sp.call(target, vec![driver, args]).unwrap();
    let text = repr(&mut sp, r);
    assert!(text.starts_with("(<function entry_point at 0x"), "{text}");
    let name: std::rc::Rc<str> = "exe_name".into();
    let exe = sp.getattr(driver, &name).unwrap();
    assert_eq!(repr(&mut sp, exe), "'x-%(backend)s'");
}
