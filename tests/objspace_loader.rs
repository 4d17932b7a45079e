//! Multi-module programs: packages, relative imports, circular imports, search paths,
//! overlays, and where errors in imported modules are reported.
mod objspace_common;
use objspace_common::*;
use rpy_lsp::objspace::object::Value;
use rpy_lsp::objspace::{LoaderConfig, ObjSpace};

#[test]
fn packages_and_implicit_relative_imports() {
    let tree = TempTree::new(
        "pkg",
        &[
            ("main.py", "import shapes.base\nfrom shapes import make, base as b2\nimport util\nR = (make(3).area(), shapes.base is b2, util.double(4), shapes.KIND)\n"),
            ("util.py", "def double(x):\n    return 2 * x\n"),
            ("shapes/__init__.py", "from shapes.base import Square\nimport helper\nKIND = helper.NAME\ndef make(n):\n    return Square(n)\n"),
            ("shapes/helper.py", "NAME = 'pkg-helper'\n"),
            ("shapes/base.py", "class Shape(object):\n    def __init__(self, n):\n        self.n = n\nclass Square(Shape):\n    def area(self):\n        return self.n * self.n\n"),
            ("helper.py", "NAME = 'top-helper'\n"),
        ],
    );
    let (mut sp, m) = run_tree(&tree, "main.py");
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    let m = m.unwrap();
    assert_eq!(attr(&mut sp, m, "R"), "(9, True, 8, 'pkg-helper')");
    // `import shapes.base` binds `shapes`, with `base` set on the package.
    assert_eq!(
        attr(&mut sp, m, "shapes").split(' ').nth(1),
        Some("'shapes'")
    );
    assert!(sp.modules.contains_key("shapes.base"));
    assert!(sp.modules.contains_key("shapes.helper"));
    assert!(!sp.modules.contains_key("helper"));
}

#[test]
fn explicit_relative_and_absolute_import() {
    let tree = TempTree::new(
        "rel",
        &[
            ("main.py", "from __future__ import absolute_import\nfrom calc import evaluate\nimport helper\nR = (evaluate('3+4'), helper.WHERE)\n"),
            ("helper.py", "WHERE = 'top'\n"),
            ("calc/__init__.py", "from __future__ import absolute_import\nfrom .ops import apply_op\nfrom . import scan\nimport helper\nWHERE = helper.WHERE\ndef evaluate(e):\n    a, op, b = scan.split_expr(e)\n    return apply_op(a, op, b)\n"),
            ("calc/helper.py", "WHERE = 'calc'\n"),
            ("calc/ops.py", "from ..calc import scan as s2\ndef apply_op(a, op, b):\n    if op == '+':\n        return a + b\n    return a - b\n"),
            ("calc/scan.py", "def split_expr(e):\n    i = 0\n    while e[i].isdigit():\n        i += 1\n    return int(e[:i]), e[i], int(e[i + 1:])\n"),
        ],
    );
    let (mut sp, _) = run_tree(&tree, "main.py");
    // `from ..calc` in calc/ops.py goes above the top-level package: an error.
    let d = describe(&sp);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("RPY003 ops.py:1:") && d[0].contains("beyond toplevel"),
        "{d:?}"
    );

    std::fs::write(tree.path("calc/ops.py"), "from . import scan as s2\ndef apply_op(a, op, b):\n    if op == '+':\n        return a + b\n    return a - b\n").unwrap();
    let (mut sp2, m) = run_tree(&tree, "main.py");
    assert!(sp2.diagnostics.is_empty(), "{:?}", describe(&sp2));
    let m = m.unwrap();
    assert_eq!(attr(&mut sp2, m, "R"), "(7, 'top')");
    let calc = sp2.module("calc").unwrap();
    // absolute_import: `import helper` in calc/__init__ is the top-level helper.
    assert_eq!(attr(&mut sp2, calc, "WHERE"), "'top'");
    let _ = &mut sp;
}

#[test]
fn circular_imports_see_partial_modules() {
    let tree = TempTree::new(
        "circ",
        &[
            ("main.py", "import a\nR = (a.A_VALUE, a.b.B_SEES_A)\n"),
            ("a.py", "A_EARLY = 1\nimport b\nA_VALUE = b.B_VALUE + 1\n"),
            (
                "b.py",
                "import a\nB_SEES_A = hasattr(a, 'A_EARLY'), hasattr(a, 'A_VALUE')\nB_VALUE = 10\n",
            ),
        ],
    );
    let (mut sp, m) = run_tree(&tree, "main.py");
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    assert_eq!(attr(&mut sp, m.unwrap(), "R"), "(11, (True, False))");
}

#[test]
fn modules_run_once_and_are_cached() {
    let tree = TempTree::new(
        "once",
        &[
            (
                "main.py",
                "import counter\nimport counter\nfrom counter import N\nimport sys\nR = N\n",
            ),
            ("counter.py", "print 'loading counter'\nN = 1\n"),
        ],
    );
    let (mut sp, m) = run_tree(&tree, "main.py");
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    assert_eq!(sp.stdout, "loading counter\n");
    assert_eq!(attr(&mut sp, m.unwrap(), "R"), "1");
}

#[test]
fn errors_in_imported_modules_point_into_them() {
    let tree = TempTree::new(
        "imperr",
        &[
            ("main.py", "import good\nimport bad\n"),
            ("good.py", "X = 1\n"),
            ("bad.py", "Y = 2\nZ = [][3]\n"),
        ],
    );
    let (sp, m) = run_tree(&tree, "main.py");
    assert!(m.is_some());
    assert_eq!(
        describe(&sp),
        vec!["RPY003 bad.py:2: exception at import time: IndexError: list index out of range"]
    );

    let tree = TempTree::new(
        "imperr2",
        &[("main.py", "import mid\n"), ("mid.py", "import nothere\n")],
    );
    let (sp, _) = run_tree(&tree, "main.py");
    let d = describe(&sp);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].starts_with("RPY007 mid.py:1: the module `nothere` is not modelled"),
        "{d:?}"
    );

    // A module missing from the user's own package is an error.
    let tree = TempTree::new(
        "imperr4",
        &[("main.py", "import pkg.nothere\n"), ("pkg/__init__.py", "")],
    );
    let (sp, _) = run_tree(&tree, "main.py");
    assert_eq!(
        describe(&sp),
        vec!["RPY002 main.py:1: ImportError: No module named nothere"]
    );

    let tree = TempTree::new(
        "imperr3",
        &[("main.py", "import broken\n"), ("broken.py", "def f(\n")],
    );
    let (sp, _) = run_tree(&tree, "main.py");
    let d = describe(&sp);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].starts_with("RPY001 broken.py:"), "{d:?}");
}

#[test]
fn overlays_replace_files_and_search_paths_are_used() {
    let tree = TempTree::new(
        "overlay",
        &[
            (
                "proj/main.py",
                "import lib\nimport extra\nR = (lib.V, extra.E)\n",
            ),
            ("proj/lib.py", "V = 'disk'\n"),
            ("libs/extra.py", "E = 'extra'\n"),
        ],
    );
    let mut config = LoaderConfig::default();
    config.search_paths.push(tree.path("libs"));
    config
        .overlays
        .insert(tree.path("proj/lib.py"), "V = 'overlay'\n".into());
    let mut sp = ObjSpace::new(config);
    let m = sp.import_main(&tree.path("proj/main.py")).unwrap();
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    assert_eq!(attr(&mut sp, m, "R"), "('overlay', 'extra')");
    // Every loaded file is in the source map; bundled ones under <bundled>/.
    let paths: Vec<String> = sp
        .sources
        .iter()
        .map(|(_, f)| f.path.display().to_string())
        .collect();
    assert!(paths.iter().any(|p| p.ends_with("proj/lib.py")));
    let (mut sp, m) = run("import os\nfrom rpython.rlib.jit import JitDriver\n");
    let paths: Vec<String> = sp
        .sources
        .iter()
        .map(|(_, f)| f.path.display().to_string())
        .collect();
    assert!(
        paths.contains(&"<bundled>/os/__init__.py".to_string()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"<bundled>/rpython/rlib/jit.py".to_string()),
        "{paths:?}"
    );
    let jd = sp.module_attr(m, "JitDriver").unwrap();
    let Value::Obj(cls) = jd else { panic!() };
    let span = sp.heap.class(cls).unwrap().name_span.unwrap();
    assert!(sp.is_bundled_file(span.file));
    assert_eq!(
        &sp.sources.get(span.file).text[span.start as usize..span.end as usize],
        "JitDriver"
    );
    let _ = attr(&mut sp, m, "JitDriver");
}

#[test]
fn import_module_api_and_star_imports() {
    let tree = TempTree::new(
        "api",
        &[
            (
                "main.py",
                "from consts import *\nR = (A, B)\nHAS_PRIVATE = '_C' in globals()\n",
            ),
            ("consts.py", "A = 1\nB = 2\n_C = 3\n"),
            ("pkg/__init__.py", ""),
            ("pkg/sub.py", "S = 'sub'\n"),
        ],
    );
    let (mut sp, m) = run_tree(&tree, "main.py");
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    let m = m.unwrap();
    assert_eq!(attr(&mut sp, m, "R"), "(1, 2)");
    assert_eq!(attr(&mut sp, m, "HAS_PRIVATE"), "False");
    let sub = sp.import_module("pkg.sub", Some(m), 0).unwrap();
    assert_eq!(attr(&mut sp, sub, "S"), "'sub'");
    let pkg = sp.module("pkg").unwrap();
    assert_eq!(sp.module_attr(pkg, "sub"), Some(Value::Obj(sub)));
    assert!(sp.import_module("pkg.nothing", Some(m), 0).is_err());
}
