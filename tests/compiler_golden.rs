//! Golden disassembly of representative snippets (Python 2 syntax, through
//! `syntax::parse_module`). Every snippet is also checked with `verify_stack_depth`.

use rpy_lsp::compiler::{compile_module, disassemble, verify_stack_depth};
use rpy_lsp::syntax::{parse_module, FileId};

fn golden(src: &str, expected: &str) {
    let module = parse_module(FileId(0), src).expect("snippet parses");
    let compiled = compile_module(&module, "<test>", src);
    assert!(
        compiled.diagnostics.is_empty(),
        "unexpected diagnostics: {:?}",
        compiled.diagnostics
    );
    verify_stack_depth(&compiled.code).expect("stack discipline");
    let got = disassemble(&compiled.code);
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    if got.trim_end() != expected.trim_end() {
        panic!("disassembly differs\n--- got ---\n{got}\n--- expected ---\n{expected}");
    }
}

#[test]
fn function_with_defaults_and_varargs() {
    golden(
        r#"def f(a, b=1, c='x', *args, **kwargs):
    """Doc."""
    d = a + b
    return d, args, kwargs
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (1)
       1 LoadConst 1 ('x')
       2 LoadConst 2 (<code f>)
       3 MakeFunction 2
       4 StoreName 0 (f)
       5 LoadConst 3 (None)
       6 ReturnValue

code <module>.f argcount=3 flags=OPTIMIZED|NEWLOCALS|VARARGS|VARKEYWORDS line=1
  varnames: a b c args kwargs d
  docstring: "Doc."
       0 LoadFast 0 (a)
       1 LoadFast 1 (b)
       2 Binary Add
       3 StoreFast 5 (d)
       4 LoadFast 5 (d)
       5 LoadFast 3 (args)
       6 LoadFast 4 (kwargs)
       7 BuildTuple 3
       8 ReturnValue
       9 LoadConst 0 (None)
      10 ReturnValue
"#,
    );
}

#[test]
fn closures_and_cells() {
    golden(
        r#"def outer(n):
    m = n + 1
    def inner(x):
        return x + m + n
    class K(object):
        def get(self):
            return m
    return inner, K
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code outer>)
       1 MakeFunction 0
       2 StoreName 0 (outer)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.outer argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: n inner K
  cellvars: m n
       0 LoadDeref 1 (n)
       1 LoadConst 0 (1)
       2 Binary Add
       3 StoreDeref 0 (m)
       4 LoadClosure 0 (m)
       5 LoadClosure 1 (n)
       6 BuildTuple 2
       7 LoadConst 1 (<code inner>)
       8 MakeFunction 0 closure
       9 StoreFast 1 (inner)
      10 LoadConst 2 ('K')
      11 LoadGlobal 0 (object)
      12 BuildTuple 1
      13 LoadClosure 0 (m)
      14 BuildTuple 1
      15 LoadConst 3 (<code K>)
      16 MakeFunction 0 closure
      17 Call 0
      18 BuildClass
      19 StoreFast 2 (K)
      20 LoadFast 1 (inner)
      21 LoadFast 2 (K)
      22 BuildTuple 2
      23 ReturnValue
      24 LoadConst 4 (None)
      25 ReturnValue

code <module>.outer.inner argcount=1 flags=OPTIMIZED|NEWLOCALS|NESTED line=3
  varnames: x
  freevars: m n
       0 LoadFast 0 (x)
       1 LoadDeref 0 (m)
       2 Binary Add
       3 LoadDeref 1 (n)
       4 Binary Add
       5 ReturnValue
       6 LoadConst 0 (None)
       7 ReturnValue

code <module>.outer.K argcount=0 flags=NEWLOCALS|CLASS_BODY line=5
  freevars: m
       0 LoadName 0 (__name__)
       1 StoreName 1 (__module__)
       2 LoadClosure 0 (m)
       3 BuildTuple 1
       4 LoadConst 0 (<code get>)
       5 MakeFunction 0 closure
       6 StoreName 2 (get)
       7 LoadLocals
       8 ReturnValue

code <module>.outer.K.get argcount=1 flags=OPTIMIZED|NEWLOCALS|NESTED line=6
  varnames: self
  freevars: m
       0 LoadDeref 0 (m)
       1 ReturnValue
       2 LoadConst 0 (None)
       3 ReturnValue
"#,
    );
}

#[test]
fn class_with_methods_docstring_and_decorator() {
    golden(
        r#"@decorate
class A(Base, object):
    """Class doc."""
    X = 1
    def __init__(self, x):
        self.__x = x
    @staticmethod
    def s():
        return A.X
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (decorate)
       1 LoadConst 0 ('A')
       2 LoadName 1 (Base)
       3 LoadName 2 (object)
       4 BuildTuple 2
       5 LoadConst 1 (<code A>)
       6 MakeFunction 0
       7 Call 0
       8 BuildClass
       9 Call 1
      10 StoreName 3 (A)
      11 LoadConst 2 (None)
      12 ReturnValue

code <module>.A argcount=0 flags=NEWLOCALS|CLASS_BODY line=1
  docstring: "Class doc."
       0 LoadName 0 (__name__)
       1 StoreName 1 (__module__)
       2 LoadConst 0 ('Class doc.')
       3 StoreName 2 (__doc__)
       4 LoadConst 1 (1)
       5 StoreName 3 (X)
       6 LoadConst 2 (<code __init__>)
       7 MakeFunction 0
       8 StoreName 4 (__init__)
       9 LoadName 5 (staticmethod)
      10 LoadConst 3 (<code s>)
      11 MakeFunction 0
      12 Call 1
      13 StoreName 6 (s)
      14 LoadLocals
      15 ReturnValue

code <module>.A.__init__ argcount=2 flags=OPTIMIZED|NEWLOCALS line=5
  varnames: self x
       0 LoadFast 1 (x)
       1 LoadFast 0 (self)
       2 StoreAttr 0 (_A__x)
       3 LoadConst 0 (None)
       4 ReturnValue

code <module>.A.s argcount=0 flags=OPTIMIZED|NEWLOCALS line=7
       0 LoadGlobal 0 (A)
       1 LoadAttr 1 (X)
       2 ReturnValue
       3 LoadConst 0 (None)
       4 ReturnValue
"#,
    );
}

#[test]
fn try_except_else_with_bare_raise() {
    golden(
        r#"def f(x):
    try:
        y = g(x)
    except (KeyError, IndexError), e:
        y = e
    except ValueError:
        log()
        raise
    except:
        y = None
    else:
        y = y + 1
    return y
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: x y .exc_type .exc_value e
       0 SetupExcept 7
       1 LoadGlobal 0 (g)
       2 LoadFast 0 (x)
       3 Call 1
       4 StoreFast 1 (y)
       5 PopBlock
       6 Jump 42
  >>   7 DupTop
       8 LoadGlobal 1 (KeyError)
       9 LoadGlobal 2 (IndexError)
      10 BuildTuple 2
      11 Compare ExcMatch
      12 PopJumpIfFalse 20
      13 StoreFast 2 (.exc_type)
      14 DupTop
      15 StoreFast 3 (.exc_value)
      16 StoreFast 4 (e)
      17 LoadFast 4 (e)
      18 StoreFast 1 (y)
      19 Jump 46
  >>  20 DupTop
      21 LoadGlobal 3 (ValueError)
      22 Compare ExcMatch
      23 PopJumpIfFalse 35
      24 StoreFast 2 (.exc_type)
      25 DupTop
      26 StoreFast 3 (.exc_value)
      27 PopTop
      28 LoadGlobal 4 (log)
      29 Call 0
      30 PopTop
      31 LoadFast 3 (.exc_value)
      32 LoadFast 2 (.exc_type)
      33 ReraiseCaught
      34 Jump 46
  >>  35 StoreFast 2 (.exc_type)
      36 DupTop
      37 StoreFast 3 (.exc_value)
      38 PopTop
      39 LoadConst 0 (None)
      40 StoreFast 1 (y)
      41 Jump 46
  >>  42 LoadFast 1 (y)
      43 LoadConst 1 (1)
      44 Binary Add
      45 StoreFast 1 (y)
  >>  46 LoadFast 1 (y)
      47 ReturnValue
      48 LoadConst 0 (None)
      49 ReturnValue
"#,
    );
}

#[test]
fn try_finally_with_return_and_break() {
    golden(
        r#"def f(xs):
    for x in xs:
        try:
            if x:
                break
            return x
        finally:
            cleanup()
    return 0
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: xs x
       0 LoadFast 0 (xs)
       1 GetIter
  >>   2 ForIter 29
       3 StoreFast 1 (x)
       4 SetupExcept 24
       5 LoadFast 1 (x)
       6 PopJumpIfFalse 13
       7 PopBlock
       8 LoadGlobal 0 (cleanup)
       9 Call 0
      10 PopTop
      11 PopTop
      12 Jump 29
  >>  13 LoadFast 1 (x)
      14 PopBlock
      15 LoadGlobal 0 (cleanup)
      16 Call 0
      17 PopTop
      18 ReturnValue
      19 PopBlock
      20 LoadGlobal 0 (cleanup)
      21 Call 0
      22 PopTop
      23 Jump 28
  >>  24 LoadGlobal 0 (cleanup)
      25 Call 0
      26 PopTop
      27 Reraise
  >>  28 Jump 2
  >>  29 LoadConst 0 (0)
      30 ReturnValue
      31 LoadConst 1 (None)
      32 ReturnValue
"#,
    );
}

#[test]
fn with_statement_and_return() {
    golden(
        r#"def f(path):
    with open(path) as fp:
        return fp.read()
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: path .with0 fp
       0 LoadGlobal 0 (open)
       1 LoadFast 0 (path)
       2 Call 1
       3 StoreFast 1 (.with0)
       4 LoadFast 1 (.with0)
       5 LoadAttr 1 (__enter__)
       6 Call 0
       7 StoreFast 2 (fp)
       8 SetupExcept 30
       9 LoadFast 2 (fp)
      10 LoadAttr 2 (read)
      11 Call 0
      12 PopBlock
      13 LoadFast 1 (.with0)
      14 LoadAttr 3 (__exit__)
      15 LoadConst 0 (None)
      16 LoadConst 0 (None)
      17 LoadConst 0 (None)
      18 Call 3
      19 PopTop
      20 ReturnValue
      21 PopBlock
      22 LoadFast 1 (.with0)
      23 LoadAttr 3 (__exit__)
      24 LoadConst 0 (None)
      25 LoadConst 0 (None)
      26 LoadConst 0 (None)
      27 Call 3
      28 PopTop
      29 Jump 36
  >>  30 DupTopTwo
      31 LoadFast 1 (.with0)
      32 LoadAttr 3 (__exit__)
      33 WithExitException
      34 PopTop
      35 Reraise
  >>  36 LoadConst 0 (None)
      37 ReturnValue
"#,
    );
}

#[test]
fn for_else_with_break_and_continue() {
    golden(
        r#"def f(xs):
    for i, x in enumerate(xs):
        if x < 0:
            continue
        if x > 10:
            break
    else:
        return -1
    return i
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: xs i x
       0 LoadGlobal 0 (enumerate)
       1 LoadFast 0 (xs)
       2 Call 1
       3 GetIter
  >>   4 ForIter 20
       5 UnpackSequence 2
       6 StoreFast 1 (i)
       7 StoreFast 2 (x)
       8 LoadFast 2 (x)
       9 LoadConst 0 (0)
      10 Compare Lt
      11 PopJumpIfFalse 13
      12 Jump 4
  >>  13 LoadFast 2 (x)
      14 LoadConst 1 (10)
      15 Compare Gt
      16 PopJumpIfFalse 19
      17 PopTop
      18 Jump 22
  >>  19 Jump 4
  >>  20 LoadConst 2 (-1)
      21 ReturnValue
  >>  22 LoadFast 1 (i)
      23 ReturnValue
      24 LoadConst 3 (None)
      25 ReturnValue
"#,
    );
}

#[test]
fn while_else_and_while_1() {
    golden(
        r#"def f(n):
    while n > 0:
        n -= 1
    else:
        n = 5
    while 1:
        if n:
            break
    return n
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: n
  >>   0 LoadFast 0 (n)
       1 LoadConst 0 (0)
       2 Compare Gt
       3 PopJumpIfFalse 9
       4 LoadFast 0 (n)
       5 LoadConst 1 (1)
       6 Inplace Sub
       7 StoreFast 0 (n)
       8 Jump 0
  >>   9 LoadConst 2 (5)
      10 StoreFast 0 (n)
  >>  11 LoadFast 0 (n)
      12 PopJumpIfFalse 14
      13 Jump 15
  >>  14 Jump 11
  >>  15 LoadFast 0 (n)
      16 ReturnValue
      17 LoadConst 3 (None)
      18 ReturnValue
"#,
    );
}

#[test]
fn list_comprehension_is_inline_and_leaks() {
    golden(
        r#"squares = [i * i for i in range(10) if i % 2 for j in (1, 2)]
last = i
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 BuildList 0
       1 LoadName 0 (range)
       2 LoadConst 0 (10)
       3 Call 1
       4 GetIter
  >>   5 ForIter 23
       6 StoreName 1 (i)
       7 LoadName 1 (i)
       8 LoadConst 1 (2)
       9 Binary Mod
      10 PopJumpIfFalse 5
      11 LoadConst 2 (1)
      12 LoadConst 1 (2)
      13 BuildTuple 2
      14 GetIter
  >>  15 ForIter 22
      16 StoreName 2 (j)
      17 LoadName 1 (i)
      18 LoadName 1 (i)
      19 Binary Mul
      20 ListAppend 3
      21 Jump 15
  >>  22 Jump 5
  >>  23 StoreName 3 (squares)
      24 LoadName 1 (i)
      25 StoreName 4 (last)
      26 LoadConst 3 (None)
      27 ReturnValue
"#,
    );
}

#[test]
fn generator_expression_is_nested_generator() {
    golden(
        r#"def f(xs, k):
    return sum(x * k for x in xs if x)
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=2 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: xs k
  cellvars: k
       0 LoadGlobal 0 (sum)
       1 LoadClosure 0 (k)
       2 BuildTuple 1
       3 LoadConst 0 (<code <genexpr>>)
       4 MakeFunction 0 closure
       5 LoadFast 0 (xs)
       6 GetIter
       7 Call 1
       8 Call 1
       9 ReturnValue
      10 LoadConst 1 (None)
      11 ReturnValue

code <module>.f.<genexpr> argcount=1 flags=OPTIMIZED|NEWLOCALS|NESTED|GENERATOR line=2
  varnames: .0 x
  freevars: k
       0 LoadFast 0 (.0)
  >>   1 ForIter 11
       2 StoreFast 1 (x)
       3 LoadFast 1 (x)
       4 PopJumpIfFalse 1
       5 LoadFast 1 (x)
       6 LoadDeref 0 (k)
       7 Binary Mul
       8 YieldValue
       9 PopTop
      10 Jump 1
  >>  11 LoadConst 0 (None)
      12 ReturnValue
"#,
    );
}

#[test]
fn lambda_with_default() {
    golden(
        r#"key = lambda item, default=0: item.get('k', default)
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (0)
       1 LoadConst 1 (<code <lambda>>)
       2 MakeFunction 1
       3 StoreName 0 (key)
       4 LoadConst 2 (None)
       5 ReturnValue

code <module>.<lambda> argcount=2 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: item default
       0 LoadFast 0 (item)
       1 LoadAttr 0 (get)
       2 LoadConst 0 ('k')
       3 LoadFast 1 (default)
       4 Call 2
       5 ReturnValue
"#,
    );
}

#[test]
fn chained_comparison_in_condition_and_value() {
    golden(
        r#"def f(a, b, c):
    if a < b <= c:
        return a < b < c
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=3 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: a b c
       0 LoadFast 0 (a)
       1 LoadFast 1 (b)
       2 DupTop
       3 RotThree
       4 Compare Lt
       5 PopJumpIfFalse 10
       6 LoadFast 2 (c)
       7 Compare Le
       8 PopJumpIfFalse 24
       9 Jump 12
  >>  10 PopTop
      11 Jump 24
  >>  12 LoadFast 0 (a)
      13 LoadFast 1 (b)
      14 DupTop
      15 RotThree
      16 Compare Lt
      17 JumpIfFalseOrPop 21
      18 LoadFast 2 (c)
      19 Compare Lt
      20 Jump 23
  >>  21 RotTwo
      22 PopTop
  >>  23 ReturnValue
  >>  24 LoadConst 0 (None)
      25 ReturnValue
"#,
    );
}

#[test]
fn not_and_or_in_conditions_and_values() {
    golden(
        r#"def f(a, b, c):
    if not a and (b or not c):
        x = 1
    return not a, a and b or c
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=3 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: a b c x
       0 LoadFast 0 (a)
       1 PopJumpIfTrue 8
       2 LoadFast 1 (b)
       3 PopJumpIfTrue 6
       4 LoadFast 2 (c)
       5 PopJumpIfTrue 8
  >>   6 LoadConst 0 (1)
       7 StoreFast 3 (x)
  >>   8 LoadFast 0 (a)
       9 PopJumpIfTrue 12
      10 LoadConst 1 (True)
      11 Jump 13
  >>  12 LoadConst 2 (False)
  >>  13 LoadFast 0 (a)
      14 PopJumpIfFalse 17
      15 LoadFast 1 (b)
      16 JumpIfTrueOrPop 18
  >>  17 LoadFast 2 (c)
  >>  18 BuildTuple 2
      19 ReturnValue
      20 LoadConst 3 (None)
      21 ReturnValue
"#,
    );
}

#[test]
fn augmented_assignment_attr_subscript_slices() {
    golden(
        r#"def f(o, d, l, k):
    o.count += 1
    d[k] -= 2
    l[1:] *= 3
    l[1:2] += [4]
    l[:] += [5]
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=4 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: o d l k .tmp0
       0 LoadFast 0 (o)
       1 DupTop
       2 LoadAttr 0 (count)
       3 LoadConst 0 (1)
       4 Inplace Add
       5 RotTwo
       6 StoreAttr 0 (count)
       7 LoadFast 1 (d)
       8 LoadFast 3 (k)
       9 DupTopTwo
      10 Subscr
      11 LoadConst 1 (2)
      12 Inplace Sub
      13 RotThree
      14 StoreSubscr
      15 LoadFast 2 (l)
      16 LoadConst 0 (1)
      17 DupTopTwo
      18 Slice lower
      19 LoadConst 2 (3)
      20 Inplace Mul
      21 RotThree
      22 StoreSlice lower
      23 LoadFast 2 (l)
      24 LoadConst 0 (1)
      25 LoadConst 1 (2)
      26 StoreFast 4 (.tmp0)
      27 DupTopTwo
      28 LoadFast 4 (.tmp0)
      29 Slice lower upper
      30 LoadConst 3 (4)
      31 BuildList 1
      32 Inplace Add
      33 RotThree
      34 LoadFast 4 (.tmp0)
      35 StoreSlice lower upper
      36 LoadFast 2 (l)
      37 DupTop
      38 Slice
      39 LoadConst 4 (5)
      40 BuildList 1
      41 Inplace Add
      42 RotTwo
      43 StoreSlice
      44 LoadConst 5 (None)
      45 ReturnValue
"#,
    );
}

#[test]
fn slices_simple_and_extended() {
    golden(
        r#"def f(a, i, j):
    x = a[i:j], a[i:], a[:j], a[:]
    y = a[::2], a[i:j:], a[::], a[1:2, 3]
    a[i:j] = y
    del a[:j]
    a[::2] = x
    del a[i::-1]
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=3 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: a i j x y
       0 LoadFast 0 (a)
       1 LoadFast 1 (i)
       2 LoadFast 2 (j)
       3 Slice lower upper
       4 LoadFast 0 (a)
       5 LoadFast 1 (i)
       6 Slice lower
       7 LoadFast 0 (a)
       8 LoadFast 2 (j)
       9 Slice upper
      10 LoadFast 0 (a)
      11 Slice
      12 BuildTuple 4
      13 StoreFast 3 (x)
      14 LoadFast 0 (a)
      15 LoadConst 0 (None)
      16 LoadConst 0 (None)
      17 LoadConst 1 (2)
      18 BuildSlice 3
      19 Subscr
      20 LoadFast 0 (a)
      21 LoadFast 1 (i)
      22 LoadFast 2 (j)
      23 LoadConst 0 (None)
      24 BuildSlice 3
      25 Subscr
      26 LoadFast 0 (a)
      27 LoadConst 0 (None)
      28 LoadConst 0 (None)
      29 LoadConst 0 (None)
      30 BuildSlice 3
      31 Subscr
      32 LoadFast 0 (a)
      33 LoadConst 2 (1)
      34 LoadConst 1 (2)
      35 BuildSlice 2
      36 LoadConst 3 (3)
      37 BuildTuple 2
      38 Subscr
      39 BuildTuple 4
      40 StoreFast 4 (y)
      41 LoadFast 4 (y)
      42 LoadFast 0 (a)
      43 LoadFast 1 (i)
      44 LoadFast 2 (j)
      45 StoreSlice lower upper
      46 LoadFast 0 (a)
      47 LoadFast 2 (j)
      48 DeleteSlice upper
      49 LoadFast 3 (x)
      50 LoadFast 0 (a)
      51 LoadConst 0 (None)
      52 LoadConst 0 (None)
      53 LoadConst 1 (2)
      54 BuildSlice 3
      55 StoreSubscr
      56 LoadFast 0 (a)
      57 LoadFast 1 (i)
      58 LoadConst 0 (None)
      59 LoadConst 4 (-1)
      60 BuildSlice 3
      61 DeleteSubscr
      62 LoadConst 0 (None)
      63 ReturnValue
"#,
    );
}

#[test]
fn imports_of_every_form() {
    golden(
        r#"import os
import os.path
import xml.dom.minidom as md
from . import sibling
from ..pkg.mod import a, b as c
from rpython.rlib import jit
from m import *
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (-1)
       1 LoadConst 1 (None)
       2 ImportName 0 (os)
       3 StoreName 0 (os)
       4 LoadConst 0 (-1)
       5 LoadConst 1 (None)
       6 ImportName 1 (os.path)
       7 StoreName 0 (os)
       8 LoadConst 0 (-1)
       9 LoadConst 1 (None)
      10 ImportName 2 (xml.dom.minidom)
      11 LoadAttr 3 (dom)
      12 LoadAttr 4 (minidom)
      13 StoreName 5 (md)
      14 LoadConst 2 (1)
      15 LoadConst 3 (('sibling',))
      16 ImportName 6 ()
      17 ImportFrom 7 (sibling)
      18 StoreName 7 (sibling)
      19 PopTop
      20 LoadConst 4 (2)
      21 LoadConst 5 (('a', 'b'))
      22 ImportName 8 (pkg.mod)
      23 ImportFrom 9 (a)
      24 StoreName 9 (a)
      25 ImportFrom 10 (b)
      26 StoreName 11 (c)
      27 PopTop
      28 LoadConst 0 (-1)
      29 LoadConst 6 (('jit',))
      30 ImportName 12 (rpython.rlib)
      31 ImportFrom 13 (jit)
      32 StoreName 13 (jit)
      33 PopTop
      34 LoadConst 0 (-1)
      35 LoadConst 7 (('*',))
      36 ImportName 14 (m)
      37 ImportStar
      38 LoadConst 1 (None)
      39 ReturnValue
"#,
    );
}

#[test]
fn print_statement_forms() {
    golden(
        r#"import sys
print 1, 'two'
print 'no newline',
print
print >>sys.stderr, 'err', 3
print >>sys.stderr, 'no newline',
print >>sys.stderr
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (-1)
       1 LoadConst 1 (None)
       2 ImportName 0 (sys)
       3 StoreName 0 (sys)
       4 LoadConst 2 (1)
       5 PrintItem
       6 LoadConst 3 ('two')
       7 PrintItem
       8 PrintNewline
       9 LoadConst 4 ('no newline')
      10 PrintItem
      11 PrintNewline
      12 LoadName 0 (sys)
      13 LoadAttr 1 (stderr)
      14 DupTop
      15 LoadConst 5 ('err')
      16 PrintItem to
      17 DupTop
      18 LoadConst 6 (3)
      19 PrintItem to
      20 PrintNewline to
      21 LoadName 0 (sys)
      22 LoadAttr 1 (stderr)
      23 DupTop
      24 LoadConst 4 ('no newline')
      25 PrintItem to
      26 PopTop
      27 LoadName 0 (sys)
      28 LoadAttr 1 (stderr)
      29 PrintNewline to
      30 LoadConst 1 (None)
      31 ReturnValue
"#,
    );
}

#[test]
fn unpacking_targets() {
    golden(
        r#"a, (b, [c, d]) = x
for k, v in items:
    pass
e = f = a
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (x)
       1 UnpackSequence 2
       2 StoreName 1 (a)
       3 UnpackSequence 2
       4 StoreName 2 (b)
       5 UnpackSequence 2
       6 StoreName 3 (c)
       7 StoreName 4 (d)
       8 LoadName 5 (items)
       9 GetIter
  >>  10 ForIter 15
      11 UnpackSequence 2
      12 StoreName 6 (k)
      13 StoreName 7 (v)
      14 Jump 10
  >>  15 LoadName 1 (a)
      16 DupTop
      17 StoreName 8 (e)
      18 StoreName 9 (f)
      19 LoadConst 0 (None)
      20 ReturnValue
"#,
    );
}

#[test]
fn global_and_del() {
    golden(
        r#"COUNT = 0
def bump(o):
    global COUNT
    COUNT += 1
    x = o
    del x, o.attr, o[0], COUNT
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (0)
       1 StoreName 0 (COUNT)
       2 LoadConst 1 (<code bump>)
       3 MakeFunction 0
       4 StoreName 1 (bump)
       5 LoadConst 2 (None)
       6 ReturnValue

code <module>.bump argcount=1 flags=OPTIMIZED|NEWLOCALS line=2
  varnames: o x
       0 LoadGlobal 0 (COUNT)
       1 LoadConst 0 (1)
       2 Inplace Add
       3 StoreGlobal 0 (COUNT)
       4 LoadFast 0 (o)
       5 StoreFast 1 (x)
       6 DeleteFast 1 (x)
       7 LoadFast 0 (o)
       8 DeleteAttr 1 (attr)
       9 LoadFast 0 (o)
      10 LoadConst 1 (0)
      11 DeleteSubscr
      12 DeleteGlobal 0 (COUNT)
      13 LoadConst 2 (None)
      14 ReturnValue
"#,
    );
}

#[test]
fn assert_with_and_without_message() {
    golden(
        r#"def f(x):
    assert x
    assert x > 0, "x must be positive: %d" % x
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: x
       0 LoadFast 0 (x)
       1 PopJumpIfTrue 4
       2 LoadGlobal 0 (AssertionError)
       3 Raise 1
  >>   4 LoadFast 0 (x)
       5 LoadConst 0 (0)
       6 Compare Gt
       7 PopJumpIfTrue 14
       8 LoadGlobal 0 (AssertionError)
       9 LoadConst 1 ('x must be positive: %d')
      10 LoadFast 0 (x)
      11 Binary Mod
      12 Call 1
      13 Raise 1
  >>  14 LoadConst 2 (None)
      15 ReturnValue
"#,
    );
}

#[test]
fn set_and_dict_comprehensions() {
    golden(
        r#"def f(xs):
    return {x for x in xs}, {k: v for k, v in xs if k}
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code f>)
       1 MakeFunction 0
       2 StoreName 0 (f)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.f argcount=1 flags=OPTIMIZED|NEWLOCALS line=1
  varnames: xs
       0 LoadConst 0 (<code <setcomp>>)
       1 MakeFunction 0
       2 LoadFast 0 (xs)
       3 GetIter
       4 Call 1
       5 LoadConst 1 (<code <dictcomp>>)
       6 MakeFunction 0
       7 LoadFast 0 (xs)
       8 GetIter
       9 Call 1
      10 BuildTuple 2
      11 ReturnValue
      12 LoadConst 2 (None)
      13 ReturnValue

code <module>.f.<setcomp> argcount=1 flags=OPTIMIZED|NEWLOCALS|NESTED line=2
  varnames: .0 x
       0 BuildSet 0
       1 LoadFast 0 (.0)
  >>   2 ForIter 7
       3 StoreFast 1 (x)
       4 LoadFast 1 (x)
       5 SetAdd 2
       6 Jump 2
  >>   7 ReturnValue

code <module>.f.<dictcomp> argcount=1 flags=OPTIMIZED|NEWLOCALS|NESTED line=2
  varnames: .0 k v
       0 BuildMap 0
       1 LoadFast 0 (.0)
  >>   2 ForIter 12
       3 UnpackSequence 2
       4 StoreFast 1 (k)
       5 StoreFast 2 (v)
       6 LoadFast 1 (k)
       7 PopJumpIfFalse 2
       8 LoadFast 2 (v)
       9 LoadFast 1 (k)
      10 MapAdd 2
      11 Jump 2
  >>  12 ReturnValue
"#,
    );
}

#[test]
fn future_division_absolute_import_and_exec() {
    golden(
        r#"from __future__ import division, absolute_import
import os
x = 7 / 2
x /= 2
y = 7 // 2
exec "y = 1" in globals()
"#,
        r#"code <module> argcount=0 flags=MODULE|TRUE_DIVISION line=1
       0 LoadConst 0 (0)
       1 LoadConst 1 (('division', 'absolute_import'))
       2 ImportName 0 (__future__)
       3 ImportFrom 1 (division)
       4 StoreName 1 (division)
       5 ImportFrom 2 (absolute_import)
       6 StoreName 2 (absolute_import)
       7 PopTop
       8 LoadConst 0 (0)
       9 LoadConst 2 (None)
      10 ImportName 3 (os)
      11 StoreName 3 (os)
      12 LoadConst 3 (3.5)
      13 StoreName 4 (x)
      14 LoadName 4 (x)
      15 LoadConst 4 (2)
      16 Inplace TrueDiv
      17 StoreName 4 (x)
      18 LoadConst 5 (3)
      19 StoreName 5 (y)
      20 LoadConst 6 ('y = 1')
      21 LoadName 6 (globals)
      22 Call 0
      23 Exec 2
      24 LoadConst 2 (None)
      25 ReturnValue
"#,
    );
}

#[test]
fn python2_literals() {
    golden(
        r#"# -*- coding: utf-8 -*-
a = "\xe9\n" 'é' r'\d'
b = u"\xe9\u20ac"
c = 10L, 0777, -9223372036854775808, 2**63, 1.5, -2.5, None, True
d = ('adjacent'
     "strings")
"#,
        r#"
code <module> argcount=0 flags=MODULE line=2
       0 LoadConst 0 ('\xe9\n\xc3\xa9\\d')
       1 StoreName 0 (a)
       2 LoadConst 1 (u'\xe9\u20ac')
       3 StoreName 1 (b)
       4 LoadConst 2 (10L)
       5 LoadConst 3 (511)
       6 LoadConst 4 (-9223372036854775808)
       7 LoadConst 5 (9223372036854775808L)
       8 LoadConst 6 (1.5)
       9 LoadConst 7 (-2.5)
      10 LoadConst 8 (None)
      11 LoadConst 9 (True)
      12 BuildTuple 8
      13 StoreName 2 (c)
      14 LoadConst 10 ('adjacentstrings')
      15 StoreName 3 (d)
      16 LoadConst 8 (None)
      17 ReturnValue
"#,
    );
}

#[test]
fn generator_function() {
    golden(
        r#"def gen(n):
    i = 0
    while i < n:
        got = yield i
        if got:
            yield
        i += 1
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (<code gen>)
       1 MakeFunction 0
       2 StoreName 0 (gen)
       3 LoadConst 1 (None)
       4 ReturnValue

code <module>.gen argcount=1 flags=OPTIMIZED|NEWLOCALS|GENERATOR line=1
  varnames: n i got
       0 LoadConst 0 (0)
       1 StoreFast 1 (i)
  >>   2 LoadFast 1 (i)
       3 LoadFast 0 (n)
       4 Compare Lt
       5 PopJumpIfFalse 19
       6 LoadFast 1 (i)
       7 YieldValue
       8 StoreFast 2 (got)
       9 LoadFast 2 (got)
      10 PopJumpIfFalse 14
      11 LoadConst 1 (None)
      12 YieldValue
      13 PopTop
  >>  14 LoadFast 1 (i)
      15 LoadConst 2 (1)
      16 Inplace Add
      17 StoreFast 1 (i)
      18 Jump 2
  >>  19 LoadConst 1 (None)
      20 ReturnValue
"#,
    );
}

#[test]
fn calls_dicts_sets_conditional_expression() {
    golden(
        r#"r = f(1, x=2, *args, **kw)
d = {'a': 1, 'b': [1, 2], 'c': (3,)}
s = {1, 2}
t = x if c else y
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (f)
       1 LoadConst 0 (1)
       2 LoadConst 1 ('x')
       3 LoadConst 2 (2)
       4 LoadName 1 (args)
       5 LoadName 2 (kw)
       6 Call 1 kw=1 * **
       7 StoreName 3 (r)
       8 BuildMap 3
       9 LoadConst 0 (1)
      10 LoadConst 3 ('a')
      11 StoreMap
      12 LoadConst 0 (1)
      13 LoadConst 2 (2)
      14 BuildList 2
      15 LoadConst 4 ('b')
      16 StoreMap
      17 LoadConst 5 (3)
      18 BuildTuple 1
      19 LoadConst 6 ('c')
      20 StoreMap
      21 StoreName 4 (d)
      22 LoadConst 0 (1)
      23 LoadConst 2 (2)
      24 BuildSet 2
      25 StoreName 5 (s)
      26 LoadName 6 (c)
      27 PopJumpIfFalse 30
      28 LoadName 7 (x)
      29 Jump 31
  >>  30 LoadName 8 (y)
  >>  31 StoreName 9 (t)
      32 LoadConst 7 (None)
      33 ReturnValue
"#,
    );
}

#[test]
fn module_level_hidden_names_are_deleted() {
    golden(
        r#"with lock:
    pass
try:
    x = 1
except E:
    raise
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (lock)
       1 StoreName 1 (.with0)
       2 LoadName 1 (.with0)
       3 LoadAttr 2 (__enter__)
       4 Call 0
       5 PopTop
       6 SetupExcept 17
       7 PopBlock
       8 LoadName 1 (.with0)
       9 LoadAttr 3 (__exit__)
      10 LoadConst 0 (None)
      11 LoadConst 0 (None)
      12 LoadConst 0 (None)
      13 Call 3
      14 PopTop
      15 DeleteName 1 (.with0)
      16 Jump 23
  >>  17 DupTopTwo
      18 LoadName 1 (.with0)
      19 LoadAttr 3 (__exit__)
      20 WithExitException
      21 PopTop
      22 Reraise
  >>  23 SetupExcept 28
      24 LoadConst 1 (1)
      25 StoreName 4 (x)
      26 PopBlock
      27 Jump 43
  >>  28 DupTop
      29 LoadName 5 (E)
      30 Compare ExcMatch
      31 PopJumpIfFalse 42
      32 StoreName 6 (.exc_type)
      33 DupTop
      34 StoreName 7 (.exc_value)
      35 PopTop
      36 LoadName 7 (.exc_value)
      37 LoadName 6 (.exc_type)
      38 ReraiseCaught
      39 DeleteName 6 (.exc_type)
      40 DeleteName 7 (.exc_value)
      41 Jump 43
  >>  42 Reraise
  >>  43 LoadConst 0 (None)
      44 ReturnValue
"#,
    );
}

/// CPython 2.7's peephole optimizer folds arithmetic on constants with Python's integers
/// (checked with `dis` of CPython 2.7.18: 3.5, 3, 9223372036854775808L,
/// 1152921504606846976L, 6.0, 1, -4): `w` is a long, as computed from one (the annotator
/// then treats a prebuilt long in range as an int, as the reference's).
#[test]
fn constant_arithmetic_folded_as_cpython() {
    golden(
        "from __future__ import division\nx = 7 / 2\ny = 7 // 2\nz = 1 << 63\nw = (1 << 63) >> 3\nv = 2.0 * 3\nu = 7 % 3\nt = -7 // 2\n",
        r#"code <module> argcount=0 flags=MODULE|TRUE_DIVISION line=1
       0 LoadConst 0 (-1)
       1 LoadConst 1 (('division',))
       2 ImportName 0 (__future__)
       3 ImportFrom 1 (division)
       4 StoreName 1 (division)
       5 PopTop
       6 LoadConst 2 (3.5)
       7 StoreName 2 (x)
       8 LoadConst 3 (3)
       9 StoreName 3 (y)
      10 LoadConst 4 (9223372036854775808L)
      11 StoreName 4 (z)
      12 LoadConst 5 (1152921504606846976L)
      13 StoreName 5 (w)
      14 LoadConst 6 (6.0)
      15 StoreName 6 (v)
      16 LoadConst 7 (1)
      17 StoreName 7 (u)
      18 LoadConst 8 (-4)
      19 StoreName 8 (t)
      20 LoadConst 9 (None)
      21 ReturnValue
"#,
    );
}

/// The optimizer folds an operator only when its operands are the constants loaded just
/// before it (checked with `dis` of CPython 2.7.18): `2 * (3 + 4)` keeps the multiply,
/// `-2 ** 63` and `~(1 << 63)` fold (unary minus and `~` of a folded value), unary plus
/// does not fold, and `1 << (60 + 3)` shifts at run time (the flow space then does not
/// fold a shift whose result is a long, so it wraps as the binary does).
#[test]
fn constant_folding_needs_adjacent_constants() {
    golden(
        "a = 2 * (3 + 4)\nb = -2 ** 63\nc = +3 * 2\nd = ~(1 << 63)\ne = 1 << (60 + 3)\nf = 2 * ~3\ng = ~3 * 2\nh = 1 - -1\n",
        r#"code <module> argcount=0 flags=MODULE line=1
       0 LoadConst 0 (2)
       1 LoadConst 1 (7)
       2 Binary Mul
       3 StoreName 0 (a)
       4 LoadConst 2 (-9223372036854775808L)
       5 StoreName 1 (b)
       6 LoadConst 3 (3)
       7 Unary Pos
       8 LoadConst 0 (2)
       9 Binary Mul
      10 StoreName 2 (c)
      11 LoadConst 4 (-9223372036854775809L)
      12 StoreName 3 (d)
      13 LoadConst 5 (1)
      14 LoadConst 6 (63)
      15 Binary LShift
      16 StoreName 4 (e)
      17 LoadConst 0 (2)
      18 LoadConst 7 (-4)
      19 Binary Mul
      20 StoreName 5 (f)
      21 LoadConst 8 (-8)
      22 StoreName 6 (g)
      23 LoadConst 0 (2)
      24 StoreName 7 (h)
      25 LoadConst 9 (None)
      26 ReturnValue
"#,
    );
}
