//! Golden disassembly: functions, closures, classes, generators, imports and module-level names.

use super::golden;

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
