"""rpy-lsp's matcher of `sre` bytecode, for `rsre_core`: the patterns the reference's
`sre_compile` makes, as programs write them by hand (the reference's own
`targetrsre.py` matches with such a list). rpy-lsp's `get_code` makes its own
programs instead (see `rsre_core`); this module is what a list of `sre` codes is
matched with.

The opcodes are numbered as rpython 0.2.1's `rsre_core` numbers them (`REPEAT` 28,
`REPEAT_ONE` 29, `MIN_REPEAT_ONE` 31, `RANGE_IGNORE` 32). Matching backtracks by
recursion: `_match` matches the rest of the pattern from `ppos` and returns at its
`SUCCESS`, so trying an alternative, a count of a repetition or one more repeat of an
item is a call, and failing returns to the choice before it. Group marks are a linked
list, so going back restores them for free."""
from rpython.rlib.objectmodel import specialize
from rpython.rlib.rsre.rsre_char import (MAXREPEAT, category_dispatch, check_charset,
                                         getlower, is_word)

_FAILURE = 0
_SUCCESS = 1
_ANY = 2
_ANY_ALL = 3
_ASSERT = 4
_ASSERT_NOT = 5
_AT = 6
_BRANCH = 7
_CATEGORY = 9
_GROUPREF = 12
_GROUPREF_EXISTS = 13
_GROUPREF_IGNORE = 14
_IN = 15
_IN_IGNORE = 16
_INFO = 17
_JUMP = 18
_LITERAL = 19
_LITERAL_IGNORE = 20
_MARK = 21
_MAX_UNTIL = 22
_MIN_UNTIL = 23
_NOT_LITERAL = 24
_NOT_LITERAL_IGNORE = 25
_REPEAT = 28
_REPEAT_ONE = 29
_MIN_REPEAT_ONE = 31


class Error(Exception):
    def __init__(self, msg):
        self.msg = msg


class _Mark(object):
    """A group mark set while matching (`MARK gid`), before the older ones."""

    def __init__(self, gid, pos, prev):
        self.gid = gid
        self.pos = pos
        self.prev = prev


def _find_mark(marks, gid):
    while marks is not None:
        if marks.gid == gid:
            return marks.pos
        marks = marks.prev
    return -1


class _Repeat(object):
    """A general repeat being matched: its `REPEAT` operator, how many times its item
    matched, where the last of them started, and the repeat it is inside."""

    def __init__(self, ppos, count, last, prev):
        self.ppos = ppos
        self.count = count
        self.last = last
        self.prev = prev


class Attempt(object):
    """One match: the pattern, the flags, where the text ends, whether the match must
    end there (`fullmatch`), and where it ended with its marks once it matched."""

    def __init__(self, pattern, end, flags, fullmatch):
        self.pattern = pattern
        self.end = end
        self.flags = flags
        self.fullmatch = fullmatch
        self.match_end = -1
        self.marks = None

    def flat_marks(self, start):
        """The marks as the list a match context keeps: the whole match's start and
        end, then the start and end of each group up to the last one marked (-1 for a
        group that did not match)."""
        top = -1
        m = self.marks
        while m is not None:
            if m.gid > top:
                top = m.gid
            m = m.prev
        flat = [-1] * (2 + (top + 2) // 2 * 2)
        flat[0] = start
        flat[1] = self.match_end
        m = self.marks
        while m is not None:
            i = m.gid + 2
            if 0 <= i < len(flat) and flat[i] == -1:
                flat[i] = m.pos
            m = m.prev
        return flat


@specialize.argtype(1)
def _char(st, text, ptr, ignore):
    c = ord(text[ptr])
    if ignore:
        return getlower(c, st.flags)
    return c


@specialize.argtype(1)
def _one(st, text, ip, ptr, marks):
    """Whether the one-character item at `ip` matches at `ptr` (< the end)."""
    pat = st.pattern
    op = pat[ip]
    if op == _ANY:
        return ord(text[ptr]) != 10
    if op == _ANY_ALL:
        return True
    if op == _IN or op == _IN_IGNORE:
        return check_charset(pat, ip + 2, _char(st, text, ptr, op == _IN_IGNORE), st.flags)
    if op == _LITERAL or op == _LITERAL_IGNORE:
        return _char(st, text, ptr, op == _LITERAL_IGNORE) == pat[ip + 1]
    if op == _NOT_LITERAL or op == _NOT_LITERAL_IGNORE:
        return _char(st, text, ptr, op == _NOT_LITERAL_IGNORE) != pat[ip + 1]
    if op == _CATEGORY:
        return category_dispatch(pat[ip + 1], ord(text[ptr]))
    # any other item: matched as a pattern of its own, one character wide
    return _match(st, text, ip, ptr, marks, None, False) and st.match_end == ptr + 1


@specialize.argtype(1)
def _count(st, text, ip, ptr, most, marks):
    """Where a run of at most `most` matches of the one-character item at `ip` ends."""
    stop = st.end
    if most != MAXREPEAT and ptr + most < stop:
        stop = ptr + most
    while ptr < stop and _one(st, text, ip, ptr, marks):
        ptr += 1
    return ptr


@specialize.argtype(1)
def _word_at(st, text, ptr):
    return 0 <= ptr < st.end and is_word(ord(text[ptr]))


@specialize.argtype(1)
def _at(st, text, code, ptr):
    end = st.end
    if code == 0 or code == 2:
        return ptr == 0
    if code == 1:
        return ptr == 0 or ord(text[ptr - 1]) == 10
    if code == 5:
        return ptr >= end or (ptr == end - 1 and ord(text[ptr]) == 10)
    if code == 6:
        return ptr == end or ord(text[ptr]) == 10
    if code == 7:
        return ptr == end
    if 3 <= code <= 4 or 8 <= code <= 11:
        if end == 0:
            return False
        boundary = _word_at(st, text, ptr - 1) != _word_at(st, text, ptr)
        if code == 3 or code == 8 or code == 10:
            return boundary
        return not boundary
    return False


@specialize.argtype(1)
def _groupref(st, text, gid, ptr, marks, ignore):
    """Where the text after `ptr` repeats group `gid` (-1 if it does not, or if the
    group did not match)."""
    start = _find_mark(marks, 2 * gid)
    stop = _find_mark(marks, 2 * gid + 1)
    if start < 0 or stop < start:
        return -1
    if ptr + (stop - start) > st.end:
        return -1
    i = start
    while i < stop:
        if _char(st, text, ptr, ignore) != _char(st, text, i, ignore):
            return -1
        i += 1
        ptr += 1
    return ptr


@specialize.argtype(1)
def match_at(st, text, ptr):
    """Whether the whole pattern matches `text` at `ptr` (then `st` says where it
    ended and with which marks)."""
    return _match(st, text, 0, ptr, None, None, True)


@specialize.argtype(1)
def _until(st, text, uppos, ptr, marks, rep, top):
    """At a repeat's `MAX_UNTIL` or `MIN_UNTIL`: its item matched once more (or, coming
    from `REPEAT`, not yet); match it again or go on with what follows."""
    pat = st.pattern
    if rep is None:
        raise Error("an UNTIL outside a REPEAT")
    count = rep.count + 1
    least = pat[rep.ppos + 2]
    most = pat[rep.ppos + 3]
    item = rep.ppos + 4
    again = _Repeat(rep.ppos, count, ptr, rep.prev)
    if count < least:
        return _match(st, text, item, ptr, marks, again, top)
    more = (most == MAXREPEAT or count < most) and ptr != rep.last
    if pat[uppos] == _MAX_UNTIL:
        if more and _match(st, text, item, ptr, marks, again, top):
            return True
        return _match(st, text, uppos + 1, ptr, marks, rep.prev, top)
    if _match(st, text, uppos + 1, ptr, marks, rep.prev, top):
        return True
    return more and _match(st, text, item, ptr, marks, again, top)


@specialize.argtype(1)
def _match(st, text, ppos, ptr, marks, rep, top):
    """Whether the pattern from `ppos` matches the text at `ptr`, with the rest of the
    enclosing repeats (`rep`) after it; `top` when this is the whole pattern (not an
    assertion's), whose `SUCCESS` ends the match."""
    pat = st.pattern
    end = st.end
    while True:
        op = pat[ppos]
        ppos += 1
        if op == _FAILURE:
            return False
        elif op == _SUCCESS:
            if top and st.fullmatch and ptr != end:
                return False
            st.match_end = ptr
            st.marks = marks
            return True
        elif op == _MAX_UNTIL or op == _MIN_UNTIL:
            return _until(st, text, ppos - 1, ptr, marks, rep, top)
        elif op == _ANY:
            if ptr >= end or ord(text[ptr]) == 10:
                return False
            ptr += 1
        elif op == _ANY_ALL:
            if ptr >= end:
                return False
            ptr += 1
        elif op == _ASSERT or op == _ASSERT_NOT:
            # <ASSERT> <skip> <back> pattern
            start = ptr - pat[ppos + 1]
            found = start >= 0 and _match(st, text, ppos + 2, start, marks, None, False)
            if op == _ASSERT:
                if not found:
                    return False
                marks = st.marks
            elif found:
                return False
            ppos += pat[ppos]
        elif op == _AT:
            if not _at(st, text, pat[ppos], ptr):
                return False
            ppos += 1
        elif op == _BRANCH:
            # <BRANCH> <skip> alternative <JUMP> ... 0
            while pat[ppos] != 0:
                if _match(st, text, ppos + 1, ptr, marks, rep, top):
                    return True
                ppos += pat[ppos]
            return False
        elif op == _CATEGORY:
            if ptr >= end or not category_dispatch(pat[ppos], ord(text[ptr])):
                return False
            ptr += 1
            ppos += 1
        elif op == _GROUPREF or op == _GROUPREF_IGNORE:
            ptr = _groupref(st, text, pat[ppos], ptr, marks, op == _GROUPREF_IGNORE)
            if ptr < 0:
                return False
            ppos += 1
        elif op == _GROUPREF_EXISTS:
            # <GROUPREF_EXISTS> <group> <skip> yes <JUMP> no
            gid = pat[ppos]
            start = _find_mark(marks, 2 * gid)
            stop = _find_mark(marks, 2 * gid + 1)
            if start >= 0 and stop >= start:
                ppos += 2
            else:
                ppos += pat[ppos + 1]
        elif op == _IN or op == _IN_IGNORE:
            if ptr >= end:
                return False
            c = _char(st, text, ptr, op == _IN_IGNORE)
            if not check_charset(pat, ppos + 1, c, st.flags):
                return False
            ppos += pat[ppos]
            ptr += 1
        elif op == _INFO:
            # <INFO> <skip> <flags> <min> ...: too little text left fails at once
            if end - ptr < pat[ppos + 2]:
                return False
            ppos += pat[ppos]
        elif op == _JUMP:
            ppos += pat[ppos]
        elif op == _LITERAL or op == _LITERAL_IGNORE:
            if ptr >= end or _char(st, text, ptr, op == _LITERAL_IGNORE) != pat[ppos]:
                return False
            ppos += 1
            ptr += 1
        elif op == _NOT_LITERAL or op == _NOT_LITERAL_IGNORE:
            if ptr >= end or _char(st, text, ptr, op == _NOT_LITERAL_IGNORE) == pat[ppos]:
                return False
            ppos += 1
            ptr += 1
        elif op == _MARK:
            marks = _Mark(pat[ppos], ptr, marks)
            ppos += 1
        elif op == _REPEAT:
            # <REPEAT> <skip> <min> <max> item <UNTIL> tail
            outer = _Repeat(ppos - 1, -1, -1, rep)
            return _until(st, text, ppos + pat[ppos], ptr, marks, outer, top)
        elif op == _REPEAT_ONE:
            # <REPEAT_ONE> <skip> <min> <max> item <SUCCESS> tail: the longest run
            # first, then shorter ones
            least = ptr + pat[ppos + 1]
            if least > end:
                return False
            stop = _count(st, text, ppos + 3, ptr, pat[ppos + 2], marks)
            tail = ppos + pat[ppos]
            while stop >= least:
                if _match(st, text, tail, stop, marks, rep, top):
                    return True
                stop -= 1
            return False
        elif op == _MIN_REPEAT_ONE:
            # the same, shortest run first
            start = ptr
            least = pat[ppos + 1]
            if least > 0:
                if ptr + least > end:
                    return False
                ptr = _count(st, text, ppos + 3, ptr, least, marks)
                if ptr < start + least:
                    return False
            most = pat[ppos + 2]
            limit = end
            if most != MAXREPEAT and start + most < limit:
                limit = start + most
            tail = ppos + pat[ppos]
            while True:
                if _match(st, text, tail, ptr, marks, rep, top):
                    return True
                if ptr >= limit or not _one(st, text, ppos + 3, ptr, marks):
                    return False
                ptr += 1
        else:
            raise Error("bad pattern code %d" % op)
