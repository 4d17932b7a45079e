"""rpy-lsp's low-level helpers of strings: the operations of `str` and `unicode` that need
a loop, written in low-level RPython (seed 000, "Implementing RPython types").

The RTyper calls them with `gendirectcall`; they are flowed and annotated like the
program's own code (late, once the RTyper knows it needs them) and specialized per
low-level type, so one helper serves `str` (`STR`) and `unicode` (`UNICODE`). `STR` and
`UNICODE` here are bound to the RTyper's own string structures. Not part of the reference
toolchain's surface (the reference has a module of this name elsewhere, with other
contents): user programs do not import this module.
"""
from rpython.rtyper.lltypesystem.lltype import GcStruct, Array, Signed, Char, UniChar
from rpython.rtyper.lltypesystem.lltype import malloc, typeOf
from rpython.rlib.objectmodel import specialize, compute_unique_id
from rpython.rtyper.annlowlevel import llstr, hlstr, hlunicode
from rpython.rlib.rgc import ll_arraycopy
from rpython.rlib.rarithmetic import r_uint, intmask

STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(Char)))
UNICODE = GcStruct('rpy_unicode', ('hash', Signed), ('chars', Array(UniChar)))
OBJECT = GcStruct('object')


@specialize.ll()
def ll_debug_bool(b):
    # a bool of debug_print, which the reference's C prints as a word
    if b:
        return llstr("True")
    return llstr("False")


@specialize.ll()
def ll_debug_str(s):
    # a string of debug_print made at run time, which the reference's C prints with %s:
    # up to its first NUL
    n = len(s.chars)
    i = 0
    while i < n:
        if s.chars[i] == '\x00':
            return _piece(s, 0, i)
        i += 1
    return s


@specialize.ll()
def ll_debug_ptr(p):
    # a pointer of debug_print, which the reference's C prints with %p: an address, which
    # no run reproduces (an id unique while the object lives here), "(nil)" for NULL
    if not p:
        return llstr("(nil)")
    return llstr(hex(r_uint(compute_unique_id(p))))


def _case(s, upper):
    # a copy with the ASCII letters of the other case changed (others kept)
    n = len(s.chars)
    result = malloc(typeOf(s).TO, n)
    i = 0
    while i < n:
        c = ord(s.chars[i])
        if upper and 97 <= c <= 122:
            c -= 32
        elif not upper and 65 <= c <= 90:
            c += 32
        result.chars[i] = chr(c) if c < 128 else s.chars[i]
        i += 1
    return result


@specialize.ll()
def ll_upper(s):
    return _case(s, True)


@specialize.ll()
def ll_lower(s):
    return _case(s, False)


# character classes (ASCII, as the reference's str methods)
DIGIT = 0
ALPHA = 1
ALNUM = 2
SPACE = 3


def _isupper(c):
    return 65 <= c <= 90


def _islower(c):
    return 97 <= c <= 122


def _isspace(c):
    return c == 32 or 9 <= c <= 13


def _char_is(c, kind):
    digit = 48 <= c <= 57
    alpha = _isupper(c) or _islower(c)
    if kind == DIGIT:
        return digit
    if kind == ALPHA:
        return alpha
    if kind == ALNUM:
        return alpha or digit
    return _isspace(c)


@specialize.ll()
def _all_of(s, kind):
    # non-empty, and every character of the class
    n = len(s.chars)
    if n == 0:
        return False
    i = 0
    while i < n:
        if not _char_is(ord(s.chars[i]), kind):
            return False
        i += 1
    return True


@specialize.ll()
def ll_isdigit(s):
    return _all_of(s, DIGIT)


@specialize.ll()
def ll_isalpha(s):
    return _all_of(s, ALPHA)


@specialize.ll()
def ll_isalnum(s):
    return _all_of(s, ALNUM)


@specialize.ll()
def ll_isspace(s):
    return _all_of(s, SPACE)


@specialize.ll()
def _is_cased(s, upper):
    # at least one letter of the case, and none of the other
    found = False
    i = 0
    n = len(s.chars)
    while i < n:
        c = ord(s.chars[i])
        if (_islower(c) if upper else _isupper(c)):
            return False
        if (_isupper(c) if upper else _islower(c)):
            found = True
        i += 1
    return found


@specialize.ll()
def ll_isupper(s):
    return _is_cased(s, True)


@specialize.ll()
def ll_islower(s):
    return _is_cased(s, False)


@specialize.ll()
def ll_startswith(s, prefix):
    n = len(prefix.chars)
    return n <= len(s.chars) and _match_at(s, 0, prefix)


@specialize.ll()
def ll_endswith(s, suffix):
    start = len(s.chars) - len(suffix.chars)
    return start >= 0 and _match_at(s, start, suffix)


def ll_undefined(msg, a, b):
    """What follows is undefined behaviour in a compiled program: an index the reference's
    helpers only `ll_assert` (unchecked in its release builds). The RTyper makes each call
    the `debug_undefined` operation, `msg` with `a` and `b` for its two `{}` (so this body
    never runs): `rpy-lsp run` stops there, naming the user's line."""
    pass


def _clamp(x, n):
    # a slice bound as Python's: negative from the end, then within [0, n]
    if x < 0:
        x += n
        if x < 0:
            x = 0
    if x > n:
        x = n
    return x


@specialize.ll()
def _match_at(s, i, sub):
    m = len(sub.chars)
    j = 0
    while j < m:
        if s.chars[i + j] != sub.chars[j]:
            return False
        j += 1
    return True



# ---- hashing

@specialize.ll()
def ll_strhash(s):
    """`compute_hash(s)`: CPython 2's string hash as the reference computes it ('' is -1,
    and a hash of 0 becomes 29872897 as 0 means "not computed yet"), cached in the
    string's `hash` field; None hashes to 0."""
    if not s:
        return 0
    x = s.hash
    if x == 0:
        x = _hash_chars(s)
        s.hash = x
    return x


@specialize.ll()
def _hash_chars(s):
    n = len(s.chars)
    if n == 0:
        return -1
    x = r_uint(ord(s.chars[0])) << 7
    i = 0
    while i < n:
        x = (x * 1000003) ^ r_uint(ord(s.chars[i]))
        i += 1
    x ^= r_uint(n)
    h = intmask(x)
    if h == 0:
        h = 29872897
    return h

# ---- building strings (characters copied with the `arraycopy` operation)

# the largest number of characters a string may have: a longer one is a MemoryError
# (its size in bytes would not fit a Signed), as allocation fails in compiled code
MAX_CHARS = 1152921504606846975


@specialize.ll()
def ll_char_str(T, c):
    # `str(c)`, `unicode(c)`: a new one-character string of pointer type T
    s = malloc(T.TO, 1)
    s.chars[0] = c
    return s


@specialize.ll()
def ll_strconcat(s1, s2):
    n1 = len(s1.chars)
    n2 = len(s2.chars)
    r = malloc(typeOf(s1).TO, n1 + n2)
    ll_arraycopy(s1.chars, r.chars, 0, 0, n1)
    ll_arraycopy(s2.chars, r.chars, 0, n1, n2)
    return r


@specialize.ll()
def _piece(s, start, stop):
    # a new string of the characters [start, stop) of s (in bounds, start <= stop)
    r = malloc(typeOf(s).TO, stop - start)
    ll_arraycopy(s.chars, r.chars, start, 0, stop - start)
    return r


@specialize.ll()
def ll_str_slice(s, start, stop):
    n = len(s.chars)
    start = _clamp(start, n)
    stop = _clamp(stop, n)
    if stop < start:
        stop = start
    if start == 0 and stop == n:
        return s
    return _piece(s, start, stop)


@specialize.ll()
def ll_str_mul(s, times):
    n = len(s.chars)
    if times < 0:
        times = 0
    if n > 0 and times > MAX_CHARS // n:
        raise MemoryError
    r = malloc(typeOf(s).TO, n * times)
    if n == 1:
        c = s.chars[0]
        i = 0
        while i < times:
            r.chars[i] = c
            i += 1
        return r
    i = 0
    while i < times:
        ll_arraycopy(s.chars, r.chars, 0, i * n, n)
        i += 1
    return r


@specialize.ll()
def ll_str_getitem_checked(s, index):
    n = len(s.chars)
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError
    return s.chars[index]


@specialize.ll()
def ll_str_is_true(s):
    return bool(s) and len(s.chars) > 0


@specialize.ll()
def ll_strcmp(s1, s2):
    """-1, 0 or 1 as s1 sorts before, with or after s2 (by character codes)."""
    n1 = len(s1.chars)
    n2 = len(s2.chars)
    m = n1
    if n2 < m:
        m = n2
    i = 0
    while i < m:
        c1 = s1.chars[i]
        c2 = s2.chars[i]
        if c1 != c2:
            if c1 < c2:
                return -1
            return 1
        i += 1
    if n1 < n2:
        return -1
    if n1 > n2:
        return 1
    return 0


@specialize.ll()
def ll_streq(s1, s2):
    """`==` of two strings (either may be None)."""
    if s1 == s2:
        return True
    if not s1 or not s2:
        return False
    n = len(s1.chars)
    return n == len(s2.chars) and _match_at(s1, 0, s2)


@specialize.ll()
def _search_bounds(s, start, end):
    # find/rfind/count bounds as the reference's: a negative start is 0 and an end past
    # the string is its length, but a start past the end is kept (the search then finds
    # nothing, even an empty needle)
    if start < 0:
        start = 0
    n = len(s.chars)
    if end > n:
        end = n
    return start, end


@specialize.ll()
def ll_find(s, sub, start, end):
    start, end = _search_bounds(s, start, end)
    if end < start:
        return -1
    m = len(sub.chars)
    if m == 0:
        return start
    first = sub.chars[0]
    i = start
    while i + m <= end:
        if s.chars[i] == first and _match_at(s, i, sub):
            return i
        i += 1
    return -1


@specialize.ll()
def ll_rfind(s, sub, start, end):
    start, end = _search_bounds(s, start, end)
    if end < start:
        return -1
    m = len(sub.chars)
    i = end - m
    while i >= start:
        if _match_at(s, i, sub):
            return i
        i -= 1
    return -1


@specialize.ll()
def ll_count(s, sub, start, end):
    start, end = _search_bounds(s, start, end)
    if end < start:
        return 0
    m = len(sub.chars)
    if m == 0:
        return end - start + 1
    count = 0
    i = start
    if m == 1:
        c = sub.chars[0]
        while i < end:
            if s.chars[i] == c:
                count += 1
            i += 1
        return count
    while i + m <= end:
        if _match_at(s, i, sub):
            count += 1
            i += m
        else:
            i += 1
    return count


@specialize.ll()
def ll_contains(s, sub):
    return ll_find(s, sub, 0, len(s.chars)) >= 0


@specialize.ll()
def _stripped(c, chars):
    # whether the character (as an int) is one strip() removes
    if chars:
        i = 0
        n = len(chars.chars)
        while i < n:
            if ord(chars.chars[i]) == c:
                return True
            i += 1
        return False
    return _isspace(c)


@specialize.ll()
def ll_strip(s, chars, which):
    """`which`: 0 strip, 1 lstrip, 2 rstrip; `chars` NULL for whitespace (ASCII
    whitespace: unicode strings strip only given characters in RPython)."""
    lo = 0
    hi = len(s.chars)
    if which != 2:
        while lo < hi and _stripped(ord(s.chars[lo]), chars):
            lo += 1
    if which != 1:
        while hi > lo and _stripped(ord(s.chars[hi - 1]), chars):
            hi -= 1
    n = hi - lo
    result = malloc(typeOf(s).TO, n)
    i = 0
    while i < n:
        result.chars[i] = s.chars[lo + i]
        i += 1
    return result


def ll_instance_str(obj):
    """`str()` of an instance (its class's `__str__` is not called, as in the reference):
    `<Name object at 0x...>` with an id unique while the object lives."""
    if not obj:
        return llstr("NULL")
    # the binary prints the address, which is never negative; an identity hash can be
    uid = compute_unique_id(obj) & 0x7fffffffffffffff
    return llstr("<" + hlstr(obj.typeptr.name) + " object at " + hex(uid) + ">")


@specialize.ll()
def ll_unicode_str(s):
    """`str()` of a unicode string: its ASCII characters, UnicodeEncodeError otherwise
    (helpers create no classes, so the encoding raises it)."""
    if not s:
        return llstr("None")
    return llstr(hlunicode(s).encode("ascii"))


# ---- replace, split, join (pieces copied with `arraycopy`)

@specialize.ll()
def ll_replace_chr_chr(s, c1, c2):
    """`s.replace(c1, c2)`: RPython's replace() takes single characters (rstring.replace
    does the rest)."""
    n = len(s.chars)
    r = malloc(typeOf(s).TO, n)
    i = 0
    while i < n:
        c = s.chars[i]
        if c == c1:
            c = c2
        r.chars[i] = c
        i += 1
    return r


@specialize.ll()
def _wrap(LIST, items):
    # a resizable list of type LIST holding exactly the array `items`
    l = malloc(LIST.TO)
    l.length = len(items)
    l.items = items
    return l


@specialize.ll()
def _split_empty(ARRAY, s, max, right):
    # an empty separator is found at every position without moving on, as the reference's
    # search gives it: `max` empty pieces (len(s) without a limit, none for another
    # negative max), then the whole string; rsplit puts the whole string first
    if max == -1:
        max = len(s.chars)
    if max < 0:
        max = 0
    res = malloc(ARRAY.TO, max + 1)
    i = 0
    while i <= max:
        res[i] = _piece(s, 0, 0)
        i += 1
    if right:
        res[0] = s
    else:
        res[max] = s
    return res


@specialize.ll()
def _split_sep(ARRAY, s, sep, max):
    n = len(s.chars)
    m = len(sep.chars)
    if m == 0:
        return _split_empty(ARRAY, s, max, False)
    count = ll_count(s, sep, 0, n)
    if max >= 0 and count > max:
        count = max
    res = malloc(ARRAY.TO, count + 1)
    i = 0
    k = 0
    while k < count:
        j = ll_find(s, sep, i, n)
        res[k] = _piece(s, i, j)
        i = j + m
        k += 1
    res[count] = _piece(s, i, n)
    return res


@specialize.ll()
def _rsplit_sep(ARRAY, s, sep, max):
    # the occurrences of sep searched from the right
    n = len(s.chars)
    m = len(sep.chars)
    if m == 0:
        return _split_empty(ARRAY, s, max, True)
    count = 0
    j = ll_rfind(s, sep, 0, n)
    while j >= 0 and (max < 0 or count < max):
        count += 1
        j = ll_rfind(s, sep, 0, j)
    res = malloc(ARRAY.TO, count + 1)
    end = n
    k = count
    while k > 0:
        j = ll_rfind(s, sep, 0, end)
        res[k] = _piece(s, j + m, end)
        end = j
        k -= 1
    res[0] = _piece(s, 0, end)
    return res


@specialize.ll()
def _rsplit_str(ARRAY, s, sep, max):
    # rsplit with a str separator as the reference's ll_rsplit does it: counting the
    # pieces, each search after a match ends one character before it (`pos - len(sep)`),
    # so a separator right before a match is missed and the list has one piece fewer for
    # each such pair; the pieces are then filled from the right and the first one keeps
    # the rest: "a,,b".rsplit(",") is ["a,", "b"]
    n = len(s.chars)
    m = len(sep.chars)
    if m == 0:
        return _split_empty(ARRAY, s, max, True)
    if max == -1:
        max = n
    count = 1
    pos = ll_rfind(s, sep, 0, n)
    while pos >= 0 and count <= max:
        pos = ll_rfind(s, sep, 0, pos - m)
        count += 1
    res = malloc(ARRAY.TO, count)
    prev = n
    pos = ll_rfind(s, sep, 0, n)
    count -= 1
    while pos >= 0 and count > 0:
        res[count] = _piece(s, pos + m, prev)
        count -= 1
        prev = pos
        pos = ll_rfind(s, sep, 0, pos)
    res[count] = _piece(s, 0, prev)
    return res


@specialize.ll()
def _split(ARRAY, s, sep, max, right):
    # max < 0: no limit (RPython's split() always has a separator: rstring.split splits
    # on whitespace)
    if right:
        return _rsplit_sep(ARRAY, s, sep, max)
    return _split_sep(ARRAY, s, sep, max)


@specialize.ll()
def ll_split(LIST, s, sep, max):
    return _wrap(LIST, _split(LIST.TO.items, s, sep, max, False))


@specialize.ll()
def ll_split_fixed(ARRAY, s, sep, max):
    return _split(ARRAY, s, sep, max, False)


@specialize.ll()
def ll_rsplit(LIST, s, sep, max):
    return _wrap(LIST, _split(LIST.TO.items, s, sep, max, True))


@specialize.ll()
def ll_rsplit_fixed(ARRAY, s, sep, max):
    return _split(ARRAY, s, sep, max, True)


@specialize.ll()
def ll_rsplit_str(LIST, s, sep, max):
    return _wrap(LIST, _rsplit_str(LIST.TO.items, s, sep, max))


@specialize.ll()
def ll_rsplit_str_fixed(ARRAY, s, sep, max):
    return _rsplit_str(ARRAY, s, sep, max)


@specialize.ll()
def _line_end(s, i, n):
    # the length of the line end at i: 2 for \r\n, 1 for \n or \r, 0 if none
    c = s.chars[i]
    if c == '\n':
        return 1
    if c == '\r':
        if i + 1 < n and s.chars[i + 1] == '\n':
            return 2
        return 1
    return 0


@specialize.ll()
def _splitlines(ARRAY, s, keepends):
    # lines end at \n, \r\n or \r; a last line without an end is kept
    n = len(s.chars)
    count = 0
    i = 0
    start = 0
    while i < n:
        e = _line_end(s, i, n)
        if e > 0:
            count += 1
            i += e
            start = i
        else:
            i += 1
    if start < n:
        count += 1
    res = malloc(ARRAY.TO, count)
    i = 0
    start = 0
    k = 0
    while i < n:
        e = _line_end(s, i, n)
        if e > 0:
            if keepends:
                res[k] = _piece(s, start, i + e)
            else:
                res[k] = _piece(s, start, i)
            k += 1
            i += e
            start = i
        else:
            i += 1
    if start < n:
        res[k] = _piece(s, start, n)
    return res


@specialize.ll()
def ll_splitlines(LIST, s, keepends):
    return _wrap(LIST, _splitlines(LIST.TO.items, s, keepends))


@specialize.ll()
def ll_splitlines_fixed(ARRAY, s, keepends):
    return _splitlines(ARRAY, s, keepends)


@specialize.ll()
def ll_join(sep, items, n):
    """`sep.join(l)` of a list of strings (its items array and length)."""
    m = len(sep.chars)
    if n == 0:
        return malloc(typeOf(sep).TO, 0)
    total = m * (n - 1)
    if n - 1 > 0 and m > MAX_CHARS // (n - 1):
        raise MemoryError
    i = 0
    while i < n:
        total += len(items[i].chars)
        if total > MAX_CHARS:
            raise MemoryError
        i += 1
    r = malloc(typeOf(sep).TO, total)
    x = items[0]
    o = len(x.chars)
    ll_arraycopy(x.chars, r.chars, 0, 0, o)
    i = 1
    while i < n:
        ll_arraycopy(sep.chars, r.chars, 0, o, m)
        o += m
        x = items[i]
        k = len(x.chars)
        ll_arraycopy(x.chars, r.chars, 0, o, k)
        o += k
        i += 1
    return r


@specialize.ll()
def ll_join_chars(T, items, n):
    """`''.join(l)` of a list of characters, as a string of pointer type T (RPython joins
    characters with an empty separator only)."""
    r = malloc(T.TO, n)
    i = 0
    while i < n:
        r.chars[i] = items[i]
        i += 1
    return r


@specialize.ll()
def ll_join_chars_narrow(T, items, n):
    """`''.join(l)` of a list of unicode characters: a str whose characters are their
    code points cast to a char, as the compiled reference does (the low 8 bits)."""
    r = malloc(T.TO, n)
    i = 0
    while i < n:
        r.chars[i] = chr(ord(items[i]) & 0xff)
        i += 1
    return r


@specialize.ll()
def ll_join_chars_widen(T, items, n):
    """`u''.join(l)` of a list of str characters: each one becomes the code point of
    its byte."""
    r = malloc(T.TO, n)
    i = 0
    while i < n:
        r.chars[i] = unichr(ord(items[i]))
        i += 1
    return r
