//! Golden disassembly: statements that branch, loop, handle exceptions or print.

use super::golden;

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
  >>   4 ForIter 23
       5 UnpackCheck 2
       6 PopJumpIfTrue 8
       7 UnpackMismatch
  >>   8 UnpackSequence 2
       9 StoreFast 1 (i)
      10 StoreFast 2 (x)
      11 LoadFast 2 (x)
      12 LoadConst 0 (0)
      13 Compare Lt
      14 PopJumpIfFalse 16
      15 Jump 4
  >>  16 LoadFast 2 (x)
      17 LoadConst 1 (10)
      18 Compare Gt
      19 PopJumpIfFalse 22
      20 PopTop
      21 Jump 25
  >>  22 Jump 4
  >>  23 LoadConst 2 (-1)
      24 ReturnValue
  >>  25 LoadFast 1 (i)
      26 ReturnValue
      27 LoadConst 3 (None)
      28 ReturnValue
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
