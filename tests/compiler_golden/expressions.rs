//! Golden disassembly: comprehensions, comparisons, boolean operators, slices, unpacking, literals, calls and constant folding.

use super::golden;

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
  >>   2 ForIter 15
       3 UnpackCheck 2
       4 PopJumpIfTrue 6
       5 UnpackMismatch
  >>   6 UnpackSequence 2
       7 StoreFast 1 (k)
       8 StoreFast 2 (v)
       9 LoadFast 1 (k)
      10 PopJumpIfFalse 2
      11 LoadFast 2 (v)
      12 LoadFast 1 (k)
      13 MapAdd 2
      14 Jump 2
  >>  15 ReturnValue
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

#[test]
fn list_display_before_in_is_a_tuple_as_cpython_optimizes_it() {
    // CPython 2.7's dis: `x in [1, -2]`, `x in [2 * 3, 4]` and `x not in []` load one
    // constant tuple; `[4, 2 * 3]`, `[True, 1]` and a list before `==` stay BUILD_LIST
    golden(
        r#"a = x in [1, -2]
b = x in [2 * 3, 4]
c = x not in []
d = x in [4, 2 * 3]
e = x in [True, 1]
f = x == [1]
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (x)
       1 LoadConst 0 (1)
       2 LoadConst 1 (-2)
       3 BuildTuple 2
       4 Compare In
       5 StoreName 1 (a)
       6 LoadName 0 (x)
       7 LoadConst 2 (6)
       8 LoadConst 3 (4)
       9 BuildTuple 2
      10 Compare In
      11 StoreName 2 (b)
      12 LoadName 0 (x)
      13 BuildTuple 0
      14 Compare NotIn
      15 StoreName 3 (c)
      16 LoadName 0 (x)
      17 LoadConst 3 (4)
      18 LoadConst 2 (6)
      19 BuildList 2
      20 Compare In
      21 StoreName 4 (d)
      22 LoadName 0 (x)
      23 LoadConst 4 (True)
      24 LoadConst 0 (1)
      25 BuildList 2
      26 Compare In
      27 StoreName 5 (e)
      28 LoadName 0 (x)
      29 LoadConst 0 (1)
      30 BuildList 1
      31 Compare Eq
      32 StoreName 6 (f)
      33 LoadConst 5 (None)
      34 ReturnValue
"#,
    );
}

#[test]
fn folded_strings_and_tuples_count_in_the_constant_run_before_in() {
    // CPython 2.7's dis: its optimizer folds `"ab" * 3`, `"abc"[1]` and `("a",) * 2` into
    // one constant, which restarts its count at 1, so `a`, `c` and `e` load a constant
    // tuple; `"x" * 21` is longer than 20 and stays an operation (`d`), and a folded item
    // after a literal is not counted with it (`b`)
    golden(
        r#"a = x in ["ab" * 3, "c"]
b = x in ["c", "ab" * 3]
c = x in ["abc"[1], 1]
d = x in ["x" * 21, "y"]
e = x in [("a",) * 2, 1]
"#,
        r#"
code <module> argcount=0 flags=MODULE line=1
       0 LoadName 0 (x)
       1 LoadConst 0 ('ab')
       2 LoadConst 1 (3)
       3 Binary Mul
       4 LoadConst 2 ('c')
       5 BuildTuple 2
       6 Compare In
       7 StoreName 1 (a)
       8 LoadName 0 (x)
       9 LoadConst 2 ('c')
      10 LoadConst 0 ('ab')
      11 LoadConst 1 (3)
      12 Binary Mul
      13 BuildList 2
      14 Compare In
      15 StoreName 2 (b)
      16 LoadName 0 (x)
      17 LoadConst 3 ('abc')
      18 LoadConst 4 (1)
      19 Subscr
      20 LoadConst 4 (1)
      21 BuildTuple 2
      22 Compare In
      23 StoreName 3 (c)
      24 LoadName 0 (x)
      25 LoadConst 5 ('x')
      26 LoadConst 6 (21)
      27 Binary Mul
      28 LoadConst 7 ('y')
      29 BuildList 2
      30 Compare In
      31 StoreName 4 (d)
      32 LoadName 0 (x)
      33 LoadConst 8 ('a')
      34 BuildTuple 1
      35 LoadConst 9 (2)
      36 Binary Mul
      37 LoadConst 4 (1)
      38 BuildTuple 2
      39 Compare In
      40 StoreName 5 (e)
      41 LoadConst 10 (None)
      42 ReturnValue
"#,
    );
}
