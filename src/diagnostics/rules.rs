//! The rule registry: one definition per diagnostic code, with its message summary, its
//! documentation (`rpy-lsp explain CODE`) and a rejected and an accepted example.

use super::Severity;

pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    pub doc: &'static str,
    pub bad: &'static str,
    pub good: &'static str,
}

pub fn lookup(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

use Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "RPY001",
        name: "syntax-error",
        severity: Error,
        summary: "the file is not valid Python 2.7 or Python 3 syntax",
        doc: "The parser could not read this file. rpy-lsp accepts Python 2.7 syntax (print \
statements, `except E, e`, backticks, `0777`, `10L`, `<>`) and Python 3 syntax.",
        bad: "def f(:\n    return 1\n",
        good: "def f():\n    return 1\n",
    },
    Rule {
        code: "RPY002",
        name: "import-not-found",
        severity: Error,
        summary: "an imported module cannot be found",
        doc: "Imports are resolved relative to the importing file's directory, then the \
configured search paths, then rpy-lsp's bundled models (os, sys, math, time, rpython.rlib.*). \
A module found nowhere raises ImportError at import time, as Python would.",
        bad: "import no_such_module\n",
        good: "import os\n",
    },
    Rule {
        code: "RPY003",
        name: "import-time-error",
        severity: Error,
        summary: "the module body raises an exception at import time",
        doc: "The program is imported before translation; module bodies, class bodies and the \
functions they call run then. An exception escaping a module body stops the import.",
        bad: "X = 1 / 0\n",
        good: "X = 1 // 1\n",
    },
    Rule {
        code: "RPY004",
        name: "unsupported-import-time",
        severity: Error,
        summary: "rpy-lsp's import-time evaluator cannot model this construct",
        doc: "rpy-lsp never executes your program natively: it evaluates module bodies on its \
own model of Python. This construct is outside that model; the rest of the module is still \
analysed with what was computed so far.",
        bad: "import ctypes\n",
        good: "from rpython.rlib.rarithmetic import intmask\n",
    },
    Rule {
        code: "RPY005",
        name: "no-target",
        severity: Error,
        summary: "the program has no usable `target` / `entry_point`",
        doc: "A standalone RPython program defines `target(*args)` returning `entry_point, None`, \
and `entry_point(argv)` taking the list of command-line strings and returning an int.",
        bad: "def main(argv):\n    return 0\n",
        good: "def entry_point(argv):\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY006",
        name: "not-reachable",
        severity: Info,
        summary: "the file is not reachable from any target",
        doc: "No program of the workspace imports this file, so only its own syntax, import and \
flow checks ran; type errors are found only in code reachable from an entry point. Add the file's \
program to `[tool.rpy-lsp] entry-points` in pyproject.toml if its target is elsewhere.",
        bad: "def helper(x):\n    return x + 1\n",
        good: "def helper(x):\n    return x + 1\n\ndef entry_point(argv):\n    return helper(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY101",
        name: "closure",
        severity: Error,
        summary: "RPython functions cannot create closures",
        doc: "A function whose local variables are read by a nested function, a lambda or a \
generator expression needs a closure cell, which RPython does not support. Pass the value \
explicitly, make the nested function a module-level function, or use a list comprehension \
instead of a generator expression.",
        bad: "def f(n):\n    g = lambda x: x + n\n    return g(1)\n",
        good: "def add(x, n):\n    return x + n\n\ndef f(n):\n    return add(1, n)\n",
    },
    Rule {
        code: "RPY102",
        name: "global-rebinding",
        severity: Error,
        summary: "a module global is rebound at run time",
        doc: "All module globals are constants after import. Assigning to a `global` inside a \
function that is translated is not RPython; keep mutable state in attributes of a prebuilt \
instance instead.",
        bad: "COUNT = 0\ndef f():\n    global COUNT\n    COUNT += 1\n",
        good: "class State(object):\n    count = 0\nstate = State()\ndef f():\n    state.count += 1\n",
    },
    Rule {
        code: "RPY103",
        name: "exec-statement",
        severity: Error,
        summary: "`exec` is not RPython",
        doc: "Code cannot be compiled at run time in RPython. Generate the code at import time \
(module level) instead.",
        bad: "def f(s):\n    exec s\n",
        good: "def f(s):\n    return len(s)\n",
    },
    Rule {
        code: "RPY104",
        name: "print-to-file",
        severity: Error,
        summary: "`print >>f` is not RPython",
        doc: "Only printing to standard output is supported. Write to a file descriptor with \
`os.write(fd, s)` instead.",
        bad: "def f(out):\n    print >>out, 'hello'\n",
        good: "import os\ndef f(fd):\n    os.write(fd, 'hello\\n')\n",
    },
    Rule {
        code: "RPY105",
        name: "star-star-kwargs",
        severity: Error,
        summary: "`**kwargs` in a function definition is not RPython",
        doc: "Functions may take default arguments and `*args`, but not `**kwargs`.",
        bad: "def f(**kwargs):\n    return 0\n",
        good: "def f(a=0, b=0):\n    return a + b\n",
    },
    Rule {
        code: "RPY106",
        name: "runtime-definition",
        severity: Error,
        summary: "classes and functions cannot be defined at run time",
        doc: "A `class` statement (or a `def` creating a closure) inside a translated function \
defines a new class each call. Define it at module level.",
        bad: "def f():\n    class A(object):\n        pass\n    return A()\n",
        good: "class A(object):\n    pass\n\ndef f():\n    return A()\n",
    },
    Rule {
        code: "RPY107",
        name: "extended-slice",
        severity: Error,
        summary: "slicing with a step is not RPython",
        doc: "Slices support only `[start:stop]`, with no step. Write the loop explicitly.",
        bad: "def f(l):\n    return l[::2]\n",
        good: "def f(l):\n    return [l[i] for i in range(0, len(l), 2)]\n",
    },
    Rule {
        code: "RPY108",
        name: "constant-always-raises",
        severity: Error,
        summary: "an operation on constants always raises",
        doc: "The flow space folds operations whose operands are all constants; when such an \
operation raises (for example `1 / 0`, or calling a constant that is not callable) the program \
can never run past it.",
        bad: "def f():\n    return 1 / 0\n",
        good: "def f(x):\n    return 1 / x\n",
    },
    Rule {
        code: "RPY109",
        name: "unsupported-operation",
        severity: Error,
        summary: "this operation is not RPython",
        doc: "The flow space rejects some Python operations outright: dict unpacking in calls \
(`f(**d)`), `yield` inside `try/finally`, `with` on unknown context managers, non-constant \
exception guards, and other dynamic features.",
        bad: "def f(d):\n    return g(**d)\n",
        good: "def f(a, b):\n    return g(a=a, b=b)\n",
    },
    Rule {
        code: "RPY110",
        name: "undefined-name",
        severity: Error,
        summary: "a global name is not defined, or a local is read before assignment",
        doc: "Every global a translated function reads must exist after import, and every \
local must be assigned before it is read on every path.",
        bad: "def f():\n    return undefined_thing\n",
        good: "THING = 1\ndef f():\n    return THING\n",
    },
];
