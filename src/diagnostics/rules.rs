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

/// The rule of a code (`RPY201`, any case).
pub fn lookup(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

/// The rule of a code or of a name (`incompatible-union`).
pub fn lookup_code_or_name(s: &str) -> Option<&'static Rule> {
    lookup(s).or_else(|| RULES.iter().find(|r| r.name.eq_ignore_ascii_case(s)))
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
A module found nowhere raises ImportError at import time, as Python would. So does the old \
`pypy` package (`pypy.rlib`, `pypy.jit`: the toolchain before it became `rpython`), which is \
not installed beside the reference's toolchain: an old program's `try: from pypy.rlib.jit \
import ...` / `except ImportError:` fallback is what gets checked.",
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
analysed with what was computed so far. Import-time code that runs past rpy-lsp's budget of \
CPU time, steps or memory is a warning: a limit of rpy-lsp, not of the reference toolchain. \
`run` and `build` refuse such a program (what the stopped code would have computed is \
missing) with an error (RPY301) naming the budget: `--import-budget SECONDS` allows more.",
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
        code: "RPY007",
        name: "not-modelled",
        severity: Warning,
        summary: "an imported module or name is not modelled by rpy-lsp",
        doc: "rpy-lsp evaluates imports on its own models of `os`, `sys`, `math`, `time` and \
much of `rpython.rlib`; the configured search paths can supply more (a checkout of the \
`rpython` package, for instance). A module or name found nowhere is not an error: it is \
*unknown*. Everything computed from it is unknown too (hover says so), operations on unknown \
values are never reported, and the code that depends on them is not checked. `build` and \
`run` refuse a program with unknown values.",
        bad: "from rpython.rlib.rsre import rsre_core\n",
        good: "from rpython.rlib.rarithmetic import intmask\n",
    },
    Rule {
        code: "RPY008",
        name: "unused-suppression",
        severity: Warning,
        summary: "a suppression comment suppresses nothing",
        doc: "A `# rpy: ignore[CODE]` comment (codes or rule names, e.g. \
`# rpy: ignore[import-not-found]`) suppresses the diagnostics of those rules on its line; a \
bare `# rpy: ignore` suppresses every diagnostic of the line. A suppression (or one item of it) \
that matches no diagnostic is stale, or names a rule that does not exist: remove it, or fix \
the name. Files no target reaches are not checked for unused suppressions (their type checks \
do not run).",
        bad: "import os  # rpy: ignore[RPY002]\n",
        good: "import no_such_module  # rpy: ignore[import-not-found]\n",
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
can never run past it. A module-level dict or list is such a constant too, with its contents \
at import time: `TABLE['k']` of a key the dict did not hold then always raises, even if the \
program adds the key later (and `len(TABLE)` is folded to its import-time length). Look such \
keys up through a variable, or keep the table on an instance.",
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
    Rule {
        code: "RPY201",
        name: "incompatible-union",
        severity: Error,
        summary: "a variable, argument or result would hold values of incompatible types",
        doc: "Where control-flow paths join, each variable must have a single type; so must each argument of a function over all its calls and the results of a function over all its `return`s. None mixes only with pointer-like values (strings, instances, lists, dicts, functions), not with ints, floats or tuples; ints mix with floats (giving floats); instances mix only when their classes have a common base; tuples only when they have the same length; two different generators never mix; a string method read from a one-character constant on one path (`\" \".join`, folded before the paths join) does not mix with the same method of a longer string. The primary location is the path that brought the second type; the label shows the first.",
        bad: "def describe(n):\n    if n > 10:\n        result = n * 2\n    else:\n        result = \"small\"\n    return result\n\ndef entry_point(argv):\n    print describe(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def describe(n):\n    if n > 10:\n        result = str(n * 2)\n    else:\n        result = \"small\"\n    return result\n\ndef entry_point(argv):\n    print describe(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY202",
        name: "container-type-mismatch",
        severity: Error,
        summary: "a list or dict would hold items (or keys, or values) of incompatible types",
        doc: "A list holds items of one type, a dict keys of one type and values of one type. Every list created at one place, and every list it is later mixed with (assigned to the same variable, extended with, compared to), shares one item type for the whole program; the same holds for dicts. The label shows where the first type came from.",
        bad: "def collect(argv):\n    numbers = []\n    for a in argv:\n        numbers.append(len(a))\n    numbers.append(\"end\")\n    return numbers\n\ndef entry_point(argv):\n    return len(collect(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def collect(argv):\n    numbers = []\n    for a in argv:\n        numbers.append(len(a))\n    numbers.append(-1)\n    return numbers\n\ndef entry_point(argv):\n    return len(collect(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY203",
        name: "attribute-type-mismatch",
        severity: Error,
        summary: "an instance attribute would hold values of incompatible types",
        doc: "Each attribute of a class has one type for all instances of the class. An attribute read through a base class is shared by the base class and all its subclasses, so its type must cover what every subclass stores in it. Class-level values count as initial values of the attribute.",
        bad: "class Box(object):\n    def __init__(self):\n        self.v = 0\n\ndef entry_point(argv):\n    b = Box()\n    b.v = argv[0]\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Box(object):\n    def __init__(self):\n        self.v = 0\n\ndef entry_point(argv):\n    b = Box()\n    b.v = len(argv[0])\n    return b.v\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY204",
        name: "missing-attribute",
        severity: Error,
        summary: "an attribute is read but never assigned, or assigned where it is not allowed",
        doc: "An instance attribute exists only if some code assigns it (or the class defines it). Reading an attribute through a base class when only a subclass assigns it, or reading an attribute of a built-in exception (such as `e.args`), cannot work after translation. Classes that declare `_attrs_` or `__slots__` accept only the listed attributes, and instances of built-in exceptions accept none.",
        bad: "class Account(object):\n    def __init__(self, owner):\n        self.owner = owner\n\ndef report(acc):\n    return acc.balance\n\ndef entry_point(argv):\n    return report(Account(argv[0]))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Account(object):\n    def __init__(self, owner):\n        self.owner = owner\n        self.balance = 0\n\ndef report(acc):\n    return acc.balance\n\ndef entry_point(argv):\n    return report(Account(argv[0]))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY205",
        name: "unsupported-type-operation",
        severity: Error,
        summary: "the operation is not supported on these types",
        doc: "RPython supports operations on its own types only: arithmetic on numbers, `+` on strings and lists, indexing of lists, strings, dicts and (with a constant index) tuples, iteration over lists, strings, dicts and iterators. There is no implicit conversion between str, unicode and numbers, and special methods such as `__add__`, `__eq__`, `__lt__` or `__contains__` are not used by operators. An `except` clause around `l.index(x)` or `l.remove(x)` must catch the ValueError they raise (or a base of it): a clause for another exception there (`except IndexError`) is refused when the program is translated.",
        bad: "def label(n):\n    return \"item\" + n\n\ndef entry_point(argv):\n    print label(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def label(n):\n    return \"item\" + str(n)\n\ndef entry_point(argv):\n    print label(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY206",
        name: "call-arguments",
        severity: Error,
        summary: "the arguments of a call do not fit the function's parameters",
        doc: "Calls are checked against the parameters of every function that can be called there. When a method is called through a base class, every override is called with the same arguments: an override with a different signature is reported at its definition. `**kwargs` parameters and `f(**d)` calls are not supported.",
        bad: "def add(a, b):\n    return a + b\n\ndef entry_point(argv):\n    return add(1, 2, len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def add(a, b, c=0):\n    return a + b + c\n\ndef entry_point(argv):\n    return add(1, 2, len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY207",
        name: "not-callable",
        severity: Error,
        summary: "the called value is not callable",
        doc: "Only functions, classes, methods and built-in functions can be called. Calling a constant such as an int or None (a hook left unset, for example) can never work.",
        bad: "HOOK = None\n\ndef entry_point(argv):\n    return HOOK(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def hook(n):\n    return n\n\nHOOK = hook\n\ndef entry_point(argv):\n    return HOOK(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY208",
        name: "string-formatting",
        severity: Error,
        summary: "unsupported `%` string formatting",
        doc: "The format string of `%` must be a constant. Only `%s`, `%d`, `%x`, `%o`, `%f`, `%r` (for instances) and `%%` are supported, without flags, width or precision (`%5d`, `%.2f`, `%04x` are rejected). The number of values must match, and str and unicode cannot be mixed.",
        bad: "def price(amount):\n    return \"%.2f EUR\" % amount\n\ndef entry_point(argv):\n    print price(len(argv) * 1.5)\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def price(amount):\n    return \"%f EUR\" % amount\n\ndef entry_point(argv):\n    print price(len(argv) * 1.5)\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY209",
        name: "negative-slice",
        severity: Error,
        summary: "a slice bound is not proven non-negative",
        doc: "The start of a slice must be a constant >= 0 or a value the annotator knows is non-negative (a length, a `range()` index, a value checked with `if i >= 0` or `assert i >= 0`). The stop must be non-negative too, except for the special case `[:-1]`.",
        bad: "def tail(items, n):\n    start = len(items) - n\n    return items[start:]\n\ndef entry_point(argv):\n    return len(tail(argv, 2))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def tail(items, n):\n    start = len(items) - n\n    if start < 0:\n        start = 0\n    return items[start:]\n\ndef entry_point(argv):\n    return len(tail(argv, 2))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY210",
        name: "unsupported-builtin",
        severity: Error,
        summary: "a built-in function or method that RPython does not provide",
        doc: "RPython provides a subset of the built-ins: `len`, `range`, `enumerate`, `min`, `max`, `abs`, `int`, `float`, `str`, `chr`, `ord`, `isinstance`… and a subset of the methods of str, unicode, list and dict. `sorted`, `sum`, `map`, `filter`, `any`, `super`, `hash`, `list.sort`, `str.format`, `str.split()` without a separator and others are not available; the message says what to use instead.",
        bad: "def smallest(argv):\n    sizes = [len(a) for a in argv]\n    sizes.sort()\n    return sizes[0]\n\ndef entry_point(argv):\n    return smallest(argv)\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def smallest(argv):\n    best = len(argv[0])\n    for a in argv:\n        best = min(best, len(a))\n    return best\n\ndef entry_point(argv):\n    return smallest(argv)\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY211",
        name: "dynamic-attribute",
        severity: Error,
        summary: "getattr or setattr with an attribute name that is not a constant",
        doc: "Attribute names must be known at translation time. `getattr(obj, name)` works only when `name` is a constant (for instance in a loop over an `unrolling_iterable` of names).",
        bad: "class Point(object):\n    def __init__(self, x):\n        self.x = x\n\ndef field(p, name):\n    return getattr(p, name)\n\ndef entry_point(argv):\n    return field(Point(1), argv[0])\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Point(object):\n    def __init__(self, x):\n        self.x = x\n\ndef field(p, name):\n    return getattr(p, \"x\")\n\ndef entry_point(argv):\n    return field(Point(1), argv[0])\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY212",
        name: "prebuilt-container-mutation",
        severity: Warning,
        summary: "a prebuilt (module-level) list or dict is modified at run time",
        doc: "Module-level lists and dicts are constants: the translated program starts with their import-time contents, and modifying them is discouraged (the reference toolchain accepts it, but such state is better kept on a prebuilt instance). Mutable default arguments are prebuilt lists too.",
        bad: "HISTORY = [0]\n\ndef record(n):\n    HISTORY.append(n)\n    return len(HISTORY)\n\ndef entry_point(argv):\n    return record(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class State(object):\n    def __init__(self):\n        self.history = [0]\n\nstate = State()\n\ndef record(n):\n    state.history.append(n)\n    return len(state.history)\n\ndef entry_point(argv):\n    return record(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY213",
        name: "prebuilt-attribute-assignment",
        severity: Error,
        summary: "an attribute of a class, module or frozen object is assigned at run time",
        doc: "Classes, modules and frozen prebuilt objects are constants after import: their attributes cannot change while the program runs. Keep mutable state in the attributes of a prebuilt instance instead.",
        bad: "class Config(object):\n    verbose = False\n\ndef enable():\n    Config.verbose = True\n\ndef entry_point(argv):\n    enable()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Config(object):\n    def __init__(self):\n        self.verbose = False\n\nconfig = Config()\n\ndef enable():\n    config.verbose = True\n\ndef entry_point(argv):\n    enable()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY214",
        name: "special-method-ignored",
        severity: Warning,
        summary: "a special method that RPython does not honour",
        doc: "The only special methods RPython uses are __init__, __del__, __len__, __getitem__, __setitem__, __getslice__, __setslice__ and __iter__ (plus __enter__/__exit__ for `with`). Others, such as __eq__, __add__ or __str__, are ordinary methods after translation: operators on instances do not call them.",
        bad: "class Key(object):\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, other):\n        return self.v == other.v\n\ndef entry_point(argv):\n    return Key(len(argv)).v\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Key(object):\n    def __init__(self, v):\n        self.v = v\n    def equals(self, other):\n        return self.v == other.v\n\ndef entry_point(argv):\n    return Key(len(argv)).v\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY215",
        name: "entry-point-result",
        severity: Error,
        summary: "the entry point does not return an int",
        doc: "`entry_point(argv)` receives the list of command-line arguments (strings) and must return an int, the exit status of the program.",
        bad: "def entry_point(argv):\n    return \"done\"\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def entry_point(argv):\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY216",
        name: "never-succeeds",
        severity: Error,
        summary: "an operation can never succeed with the values that reach it",
        doc: "After type inference, some operation has an operand with no possible value, or an operation that cannot work on the values it gets (an item of a list that is always empty, a tuple index out of range). The code after it is never analysed.",
        bad: "def first():\n    items = []\n    return items[0]\n\ndef entry_point(argv):\n    return first()\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def first():\n    items = [0]\n    return items[0]\n\ndef entry_point(argv):\n    return first()\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY217",
        name: "unsupported-value",
        severity: Error,
        summary: "a value of a type RPython cannot represent",
        doc: "Some Python values have no RPython equivalent: sets (use a dict with None values), long integers that do not fit in a machine word (use rarithmetic.r_ulonglong), classmethods, prebuilt iterators and other objects.",
        bad: "def unique(words):\n    s = set()\n    for w in words:\n        s.add(w)\n    return len(s)\n\ndef entry_point(argv):\n    return unique(argv)\n\ndef target(*args):\n    return entry_point, None\n",
        good: "def unique(words):\n    s = {}\n    for w in words:\n        s[w] = None\n    return len(s)\n\ndef entry_point(argv):\n    return unique(argv)\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY218",
        name: "argument-type",
        severity: Error,
        summary: "an argument of a built-in or declared function has the wrong type",
        doc: "Built-in functions and methods accept specific types (`os.write(fd, string)`, `sep.join(list_of_strings)`, `str.strip(char)`), and functions decorated with `objectmodel.enforceargs` or specialized with `specialize.arg`/`specialize.memo` have requirements on their arguments.",
        bad: "import os\n\ndef emit(n):\n    os.write(1, n)\n\ndef entry_point(argv):\n    emit(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "import os\n\ndef emit(n):\n    os.write(1, str(n))\n\ndef entry_point(argv):\n    emit(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY219",
        name: "class-hierarchy",
        severity: Error,
        summary: "a class hierarchy RPython does not support",
        doc: "A class may have one regular base class; additional bases must be `_mixin_` classes (or use `objectmodel.import_from_mixin`). Mixin classes cannot be instantiated directly. The regular base must be `object`, an exception class or another RPython class: a class deriving from a built-in type (`class OpSpec(tuple)`, `class Stack(list)`) may be used at import time to build tables, but RPython code can neither call it, test `isinstance` against it, nor use a prebuilt instance of it.",
        bad: "class Named(object):\n    pass\n\nclass Sized(object):\n    pass\n\nclass Thing(Named, Sized):\n    pass\n\ndef entry_point(argv):\n    t = Thing()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "class Named(object):\n    _mixin_ = True\n\nclass Sized(object):\n    pass\n\nclass Thing(Sized, Named):\n    pass\n\ndef entry_point(argv):\n    t = Thing()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY220",
        name: "signedness",
        severity: Error,
        summary: "signed and unsigned integers are mixed",
        doc: "Machine integers (`r_uint`, `r_longlong`…) do not mix implicitly with signed ints unless the signed value is known to be non-negative. Convert explicitly with `r_uint(x)`, or back with `intmask(x)`; comparisons between signed and unsigned numbers are rejected.",
        bad: "from rpython.rlib.rarithmetic import r_uint\n\ndef below(limit, n):\n    return r_uint(limit) < n\n\ndef entry_point(argv):\n    if below(10, len(argv) - 5):\n        return 1\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
        good: "from rpython.rlib.rarithmetic import r_uint\n\ndef below(limit, n):\n    return r_uint(limit) < r_uint(n)\n\ndef entry_point(argv):\n    if below(10, len(argv) - 5):\n        return 1\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY221",
        name: "jit-driver",
        severity: Error,
        summary: "a JitDriver call does not list the driver's green and red variables",
        doc: "`driver.jit_merge_point(...)` and `driver.can_enter_jit(...)` must receive every variable named in the JitDriver's `greens` and `reds`, as keyword arguments, and no others.",
        bad: "from rpython.rlib.jit import JitDriver\ndriver = JitDriver(greens=['pc'], reds=['acc'])\n\ndef loop(n):\n    pc = 0\n    acc = 0\n    while pc < n:\n        driver.jit_merge_point(pc=pc)\n        acc += pc\n        pc += 1\n    return acc\n\ndef entry_point(argv):\n    return loop(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        good: "from rpython.rlib.jit import JitDriver\ndriver = JitDriver(greens=['pc'], reds=['acc'])\n\ndef loop(n):\n    pc = 0\n    acc = 0\n    while pc < n:\n        driver.jit_merge_point(pc=pc, acc=acc)\n        acc += pc\n        pc += 1\n    return acc\n\ndef entry_point(argv):\n    return loop(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY223",
        name: "del-does-too-much",
        severity: Error,
        summary: "a __del__ reaches a function a finalizer must not call",
        doc: "An RPython-level `__del__` runs whenever the garbage collector frees the object, so it must do little. The toolchain refuses a `__del__` from which, through any chain of calls, it can reach a function marked `_dont_reach_me_in_del_`: the GIL's release and acquire, which the wrapper of every `rffi.llexternal` C function calls unless it is declared `releasegil=False` (or `sandboxsafe=True`, or `_nowrapper=True`), and every function holding a `jit_merge_point` or `can_enter_jit`. Most of `os` counts: `os.write`, `os.read`, `os.open`, `os.lseek`, `os.unlink` and the other file-system calls are such C functions in the toolchain (`os.close` is declared `releasegil=False`, so it is allowed). `@rgc.must_be_light_finalizer` does not lift the rule. Declare the C function with `releasegil=False`, or have `__del__` only record the object and do the work later.",
        bad: "from rpython.rtyper.lltypesystem import rffi\n\nc_close = rffi.llexternal('close', [rffi.INT], rffi.INT)\n\nclass File(object):\n    def __init__(self, fd):\n        self.fd = fd\n\n    def __del__(self):\n        c_close(rffi.cast(rffi.INT, self.fd))\n\ndef entry_point(argv):\n    f = File(len(argv) + 100)\n    return f.fd - 100 - len(argv)\n\ndef target(*args):\n    return entry_point, None\n",
        good: "from rpython.rtyper.lltypesystem import rffi\n\nc_close = rffi.llexternal('close', [rffi.INT], rffi.INT, releasegil=False)\n\nclass File(object):\n    def __init__(self, fd):\n        self.fd = fd\n\n    def __del__(self):\n        c_close(rffi.cast(rffi.INT, self.fd))\n\ndef entry_point(argv):\n    f = File(len(argv) + 100)\n    return f.fd - 100 - len(argv)\n\ndef target(*args):\n    return entry_point, None\n",
    },
    Rule {
        code: "RPY301",
        name: "cannot-translate",
        severity: Error,
        summary: "rpy-lsp's RTyper cannot translate this operation",
        doc: "After the annotator accepts a program, the RTyper turns every operation into low-level operations for `rpy-lsp run` (the LLInterpreter) and `rpy-lsp build` (C). Where it cannot (a built-in or a combination of types it does not translate yet, or a value from something rpy-lsp does not model), `run` and `build` refuse the program with this error at the operation's line. `check` runs the RTyper too, after a clean annotation, and reports the same as a warning: the reference toolchain, which defines the language, may well accept the program (`--no-translate` skips this step; the language server does not run it).",
        bad: "from rpython.rlib.objectmodel import current_object_addr_as_int


def entry_point(argv):
    print current_object_addr_as_int(argv) != 0
    return 0


def target(*args):
    return entry_point, None
",
        good: "import os


def entry_point(argv):
    fd = os.open(\"out.txt\", os.O_WRONLY | os.O_CREAT, 0644)
    os.close(fd)
    return 0


def target(*args):
    return entry_point, None
",
    },
    Rule {
        code: "RPY222",
        name: "not-rpython-called",
        severity: Error,
        summary: "a function marked not_rpython is called from translated code",
        doc: "Functions decorated with `objectmodel.not_rpython` (or whose docstring starts with NOT_RPYTHON) are for import time only. Call them at module level, or only under `if not we_are_translated():`.",
        bad: "from rpython.rlib.objectmodel import not_rpython\n\n@not_rpython\ndef setup():\n    return 1\n\ndef entry_point(argv):\n    return setup()\n\ndef target(*args):\n    return entry_point, None\n",
        good: "from rpython.rlib.objectmodel import not_rpython\n\n@not_rpython\ndef setup():\n    return 1\n\nVALUE = setup()\n\ndef entry_point(argv):\n    return VALUE\n\ndef target(*args):\n    return entry_point, None\n",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique() {
        let mut codes = crate::fasthash::HashSet::default();
        let mut names = crate::fasthash::HashSet::default();
        for r in RULES {
            assert!(codes.insert(r.code), "two rules have the code {}", r.code);
            assert!(names.insert(r.name), "two rules have the name {}", r.name);
            assert!(
                r.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                r.name
            );
            assert!(
                lookup(r.name).is_none(),
                "a name looks like a code: {}",
                r.name
            );
        }
    }
}
