//! Programs with their CPython 2.7 output (from the compiler execution tests), run on the
//! import-time object space: what module bodies print must match.
mod objspace_common;
use objspace_common::*;

fn check_output(src: &str, expected: &str) {
    let (sp, _) = run(src);
    assert!(sp.diagnostics.is_empty(), "{:?}", describe(&sp));
    assert_eq!(
        sp.stdout, expected,
        "\n--- got ---\n{}--- expected (CPython 2.7) ---\n{expected}",
        sp.stdout
    );
}

#[test]
fn cpython_program_1() {
    check_output(
        r#"def f(xs):
    out = []
    for x in xs:
        try:
            if x == 1:
                continue
            if x == 3:
                break
            out.append(x)
        finally:
            out.append(-x)
    else:
        out.append(100)
    return out
print f([0, 1, 2, 3, 4]), f([0, 1])

def g(n):
    try:
        try:
            return n * 2
        finally:
            print 'inner finally', n
    finally:
        print 'outer finally'
print g(5)

def h():
    for i in range(3):
        try:
            try:
                raise ValueError(i)
            finally:
                if i == 1:
                    break
        except ValueError, e:
            print 'caught', e.args[0]
    return i
print h()

def w(n):
    i = 0
    while True:
        i += 1
        try:
            if i > n:
                return i
            if i % 2:
                continue
        finally:
            print 'tick', i,
        print 'even', i
    print 'unreachable'
print w(3)

def k():
    try:
        return 'try'
    finally:
        return 'finally'
print k()
"#,
        "[0, 0, -1, 2, -2, -3] [0, 0, -1, 100]
inner finally 5
outer finally
10
caught 0
1
tick 1 tick 2 even 2
tick 3 tick 4 4
finally
",
    );
}

#[test]
fn cpython_program_2() {
    check_output(
        r#"def risky(n):
    if n == 0:
        raise KeyError('k')
    if n == 1:
        raise IndexError('i')
    if n == 2:
        raise ValueError, 'v'
    return n

def catch(n):
    try:
        try:
            r = risky(n)
        except KeyError:
            print 'key'
            raise
        except (IndexError, TypeError), e:
            print 'idx', e.args[0]
            r = -1
        else:
            print 'else'
            r = r + 1
    except LookupError, e:
        print 'outer', e.args[0]
        r = -2
    except:
        print 'anything'
        r = -3
    return r
print catch(0), catch(1), catch(2), catch(5)

def cleanup_order():
    log = []
    try:
        try:
            log.append('body')
            raise ValueError('x')
        except ValueError:
            log.append('handler')
            raise
        finally:
            log.append('finally')
    except ValueError, e:
        log.append('outer:' + e.args[0])
    return log
print cleanup_order()

def reraise_in_loop():
    caught = 0
    for i in range(4):
        try:
            try:
                if i % 2:
                    raise KeyError(i)
            except KeyError:
                if i == 3:
                    raise
                caught += 1
        except KeyError, e:
            print 'escaped', e.args[0]
    return caught
print reraise_in_loop()
"#,
        "key
outer k
-2 idx i
-1 anything
-3 else
6
['body', 'handler', 'finally', 'outer:x']
escaped 3
1
",
    );
}

#[test]
fn cpython_program_3() {
    check_output(
        r#"class CM(object):
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print 'enter', self.name
        return self.name.upper()
    def __exit__(self, t, v, tb):
        print 'exit', self.name, t is None

def w(flag):
    with CM('a') as x, CM('b') as y:
        print x, y
        if flag == 1:
            return 'ret'
        if flag == 2:
            raise ValueError('boom')
    return 'end'
print w(0)
print w(1)
try:
    w(2)
except ValueError, e:
    print 'caught', e.args[0]
for i in range(3):
    with CM('loop'):
        if i == 1:
            continue
        if i == 2:
            break
        print 'body', i
with CM('module'):
    print 'at module level'
"#,
        "enter a
enter b
A B
exit b True
exit a True
end
enter a
enter b
A B
exit b True
exit a True
ret
enter a
enter b
A B
exit b False
exit a False
caught boom
enter loop
body 0
exit loop True
enter loop
exit loop True
enter loop
exit loop True
enter module
at module level
exit module True
",
    );
}

#[test]
fn cpython_program_4() {
    check_output(
        r#"def counter():
    count = [0]
    def inc(k=1):
        count[0] += k
        return count[0]
    return inc
c = counter()
c()
c(5)
print c()
xs = [i * j for i in range(3) for j in range(3) if i != j]
print xs, i, j
def gens(n):
    total = sum(x * x for x in range(n) if x % 2)
    return total
print gens(6)
def fib(n):
    a, b = 0, 1
    while n > 0:
        yield a
        a, b = b, a + b
        n -= 1
print list(fib(8))
sq = {k: k * k for k in range(4)}
print sq[3], len({x % 3 for x in range(10)})
adders = [lambda x, i=i: x + i for i in range(3)]
print [a(10) for a in adders]
def outer(n):
    def middle():
        def inner():
            return n + 1
        return inner()
    return middle()
print outer(41)
G = 0
def bump():
    global G
    G += 1
bump()
bump()
print G
def varargs(a, b=2, *rest, **kw):
    return a, b, rest, kw.get('z', 0)
print varargs(1), varargs(1, 3, 4, 5), varargs(*(7, 8)), varargs(1, z=9), varargs(b=6, a=5)
"#,
        "7
[0, 0, 0, 2, 0, 2] 2 2
35
[0, 1, 1, 2, 3, 5, 8, 13]
9 3
[10, 11, 12]
42
2
(1, 2, (), 0) (1, 3, (4, 5), 0) (7, 8, (), 0) (1, 2, (), 9) (5, 6, (), 0)
",
    );
}

#[test]
fn cpython_program_5() {
    check_output(
        r#"def cmp3(a, b, c):
    return a < b < c, a < b > c, not a, a and b or c
print cmp3(1, 2, 3), cmp3(3, 2, 1), cmp3(0, 5, 4)
def cond(a, b):
    if not a and (b or not a):
        return 'x'
    elif a < b <= 10:
        return 'y'
    return 'z'
print cond(0, 0), cond(1, 5), cond(5, 1), cond(1, 11)
l = range(10)
print l[2:5], l[:3], l[7:], l[::3], l[8:2:-2], l[:]
l[2:5] = ['a']
print l
del l[:3]
print l
l[1:] += [99]
l[:2] *= 2
l[1:3] += ['t']
print l
class O(object):
    pass
o = O()
o.n = 1
o.n += 10
d = {'k': 5}
d['k'] -= 2
a, (b, [c, e]) = 1, (2, [3, 4])
print o.n, d['k'], a + b + c + e
x = 7
x //= 2
print x, 7 / 2, -7 / 2, 2 ** 10, 7 % 3, `x`
print 'no newline',
print 'same line'
assert x == 3
try:
    assert x == 4, 'x is %d' % x
except AssertionError, e:
    print 'assert', e.args[0]
print 1 if x else 2, 3 if not x else 4
print 'ab' in 'xaby', 3 not in [1, 2], None is None, x is not None
"#,
        "(True, False, False, 2) (False, False, False, 2) (False, True, True, 4)
x y z z
[2, 3, 4] [0, 1, 2] [7, 8, 9] [0, 3, 6, 9] [8, 6, 4] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
[0, 1, 'a', 5, 6, 7, 8, 9]
[5, 6, 7, 8, 9]
[5, 6, 5, 't', 6, 7, 8, 9, 99]
11 3 10
3 3 -4 1024 1 3
no newline same line
assert x is 3
1 4
True True True True
",
    );
}

#[test]
fn cpython_program_6() {
    check_output(
        r#"class Base(object):
    kind = 'base'
    def __init__(self, v):
        self.__v = v
    def get(self):
        return self.__v
    def describe(self):
        return '%s:%s' % (self.kind, self.get())
class Derived(Base):
    """Doc."""
    kind = 'derived'
    def get(self):
        return Base.get(self) * 2
print Base(3).describe(), Derived(3).describe(), Derived.__doc__
def make():
    y = 'outer'
    class K(object):
        y = 'class'
        z = y
        def m(self):
            return y
    return K().m(), K.z
print make()
def deco(f):
    def wrapper(*args):
        return 'wrapped', f(*args)
    return wrapper
@deco
def plain(a, b):
    return a + b
print plain(1, 2)
"#,
        "base:3 derived:6 Doc.
('outer', 'class')
('wrapped', 3)
",
    );
}

#[test]
fn cpython_program_7() {
    check_output(
        r#"def nested():
    try:
        raise ValueError('a')
    except ValueError:
        try:
            raise KeyError('b')
        except KeyError:
            pass
        raise
try:
    nested()
except Exception, e:
    print type(e).__name__, e.args
def nested2():
    try:
        raise ValueError('a')
    except ValueError:
        try:
            pass
        except KeyError:
            pass
        raise
try:
    nested2()
except Exception, e:
    print type(e).__name__, e.args
def nested3():
    try:
        raise ValueError('a')
    except ValueError:
        for i in range(2):
            try:
                raise KeyError(i)
            except KeyError:
                if i == 1:
                    raise
        raise
try:
    nested3()
except Exception, e:
    print type(e).__name__, e.args
"#,
        "KeyError ('b',)
ValueError ('a',)
KeyError (1,)
",
    );
}

#[test]
fn cpython_program_8() {
    check_output(
        r#"class A(object):
    xs = [1, 2, 3]
    ys = [x * 2 for x in xs]
    zs = list(y + 1 for y in xs)
print A.ys, A.zs, A.x
def combo(n):
    log = []
    for i in range(n):
        try:
            try:
                if i == 1:
                    raise KeyError(i)
                if i == 2:
                    continue
                if i == 4:
                    return log
            except KeyError:
                log.append('k%d' % i)
            else:
                log.append('e%d' % i)
            finally:
                log.append('f%d' % i)
        finally:
            log.append('F')
    return log
print combo(3)
print combo(6)
def gen_finally():
    try:
        yield 1
        yield 2
    finally:
        print 'gen cleanup'
for v in gen_finally():
    print 'got', v
"#,
        "[2, 4, 6] [2, 3, 4] 3
['e0', 'f0', 'F', 'k1', 'f1', 'F', 'f2', 'F']
['e0', 'f0', 'F', 'k1', 'f1', 'F', 'f2', 'F', 'e3', 'f3', 'F', 'f4', 'F']
got 1
got 2
gen cleanup
",
    );
}
