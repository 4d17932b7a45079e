"""rpy-lsp's model of `rpython.rlib.rsre.rsre_re`: Python's `re` interface for translated
code, with *constant* patterns. `compile` is a memo function: the pattern is parsed at
translation time (by rpy-lsp's own parser, `__rpy__.re_program`) into a program of
integers, and only the matching below, written in RPython, runs in the program.

The matcher backtracks as `sre` does (alternatives in order, greedy or lazy repetition),
so it picks the same match; the program's encoding is described in rpy-lsp's
`objspace/regex/program.rs`. Each node ends with the index of its continuation."""
import sys
from __rpy__ import re_program
from rpython.rlib.objectmodel import specialize

I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64


class error(Exception):
    pass


_MATCH = 1
_CHAR = 2
_ANY = 3
_CLASS = 4
_AT = 5
_MARK = 6
_BRANCH = 7
_REPEAT_ONE = 8
_REPEAT = 9
_REPEAT_TAIL = 10
_BACKREF = 11
_ASSERT = 12
_ASSERT_END = 13
# the `max` of a repetition without one (every word of a program is non-negative)
_NO_MAX = 4294967295


def _lower(c):
    if 65 <= c <= 90:
        return c + 32
    return c


def _is_digit(c, wide):
    return 48 <= c <= 57


def _is_space(c, wide):
    return c == 32 or 9 <= c <= 13


def _is_word(c, wide):
    # the categories of code units past ASCII (re.UNICODE) are not modelled: they count
    # as neither digits, word characters nor spaces
    return 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 95


def _in_category(cat, c, wide):
    if cat == 0:
        return _is_digit(c, wide)
    if cat == 1:
        return _is_word(c, wide)
    return _is_space(c, wide)


def _class_test(code, pc, c):
    """Whether code unit `c` is in the CLASS node at `pc` (negation aside)."""
    n = code[pc + 3]
    wide = (code[pc + 2] & 2) != 0
    i = pc + 4
    k = 0
    while k < n:
        kind = code[i]
        if kind == 0:
            if code[i + 1] <= c <= code[i + 2]:
                return True
        else:
            if _in_category(code[i + 1], c, wide) != (code[i + 2] != 0):
                return True
        i += 3
        k += 1
    return False


def _class_match(code, pc, c):
    hit = _class_test(code, pc, c)
    if not hit and (code[pc + 2] & 1) != 0:
        low = _lower(c)
        if low != c:
            hit = _class_test(code, pc, low)
        elif 97 <= c <= 122:
            hit = _class_test(code, pc, c - 32)
    return hit != (code[pc + 1] != 0)


class _State(object):
    """What a match attempt records: group marks and repeat registers (both restored on
    backtracking) and where the match ended."""

    def __init__(self, nmarks, nregs, end):
        self.marks = [-1] * nmarks
        self.regs = [-1] * (2 * nregs)
        self.end = end
        self.match_end = -1


@specialize.argtype(3)
def _one(state, code, pc, string, pos):
    """Whether the single-unit node at `pc` matches the unit at `pos` (< end)."""
    c = ord(string[pos])
    op = code[pc]
    if op == _CHAR:
        if code[pc + 2] != 0:
            return _lower(c) == _lower(code[pc + 1])
        return c == code[pc + 1]
    if op == _ANY:
        return code[pc + 1] != 0 or c != 10
    return _class_match(code, pc, c)


@specialize.argtype(3)
def _at(state, kind, string, pos):
    end = state.end
    if kind == 0:
        return pos == 0
    if kind == 1:
        return pos == 0 or ord(string[pos - 1]) == 10
    if kind == 2:
        return pos == end or (pos == end - 1 and ord(string[pos]) == 10)
    if kind == 3:
        return pos == end or ord(string[pos]) == 10
    if kind == 4:
        return pos == 0
    if kind == 5:
        return pos == end
    wide = kind >= 8
    before = pos > 0 and _is_word(ord(string[pos - 1]), wide)
    after = pos < end and _is_word(ord(string[pos]), wide)
    if kind == 6 or kind == 8:
        return before != after
    return before == after


@specialize.argtype(3)
def _match(state, code, pc, string, pos):
    """Whether the program matches from node `pc` at `pos`; on success `state.match_end`
    is where it ended (marks hold the groups)."""
    while True:
        op = code[pc]
        if op == _MATCH or op == _ASSERT_END:
            state.match_end = pos
            return True
        elif op == _CHAR or op == _ANY or op == _CLASS:
            if pos >= state.end or not _one(state, code, pc, string, pos):
                return False
            pos += 1
            if op == _CHAR:
                pc = code[pc + 3]
            elif op == _ANY:
                pc = code[pc + 2]
            else:
                pc = code[pc + 4 + 3 * code[pc + 3]]
        elif op == _AT:
            if not _at(state, code[pc + 1], string, pos):
                return False
            pc = code[pc + 2]
        elif op == _MARK:
            slot = code[pc + 1]
            old = state.marks[slot]
            state.marks[slot] = pos
            if _match(state, code, code[pc + 2], string, pos):
                return True
            state.marks[slot] = old
            return False
        elif op == _BRANCH:
            n = code[pc + 1]
            k = 0
            while k < n:
                if _match(state, code, code[pc + 2 + k], string, pos):
                    return True
                k += 1
            return False
        elif op == _REPEAT_ONE:
            return _repeat_one(state, code, pc, string, pos)
        elif op == _REPEAT:
            reg = 2 * code[pc + 5]
            old_count = state.regs[reg]
            old_pos = state.regs[reg + 1]
            state.regs[reg] = 0
            state.regs[reg + 1] = -1
            if _repeat_step(state, code, pc, string, pos):
                return True
            state.regs[reg] = old_count
            state.regs[reg + 1] = old_pos
            return False
        elif op == _REPEAT_TAIL:
            return _repeat_step(state, code, code[pc + 1], string, pos)
        elif op == _BACKREF:
            group = code[pc + 1]
            start = state.marks[2 * group]
            stop = state.marks[2 * group + 1]
            if start < 0 or stop < 0:
                return False
            length = stop - start
            if pos + length > state.end:
                return False
            i = 0
            while i < length:
                a = ord(string[start + i])
                b = ord(string[pos + i])
                if a != b and not (code[pc + 2] != 0 and _lower(a) == _lower(b)):
                    return False
                i += 1
            pos += length
            pc = code[pc + 3]
        elif op == _ASSERT:
            ahead = code[pc + 1] != 0
            negated = code[pc + 2] != 0
            at = pos
            if not ahead:
                at = pos - code[pc + 3]
            ok = False
            if at >= 0:
                saved_end = state.match_end
                saved_marks = state.marks[:]
                ok = _match(state, code, code[pc + 4], string, at)
                if ok and not ahead and state.match_end != pos:
                    ok = False
                state.match_end = saved_end
                if negated or not ok:
                    state.marks = saved_marks
            if ok == negated:
                return False
            pc = code[pc + 5]
        else:
            return False


@specialize.argtype(3)
def _repeat_one(state, code, pc, string, pos):
    """A repetition of a single-unit node: count how far it reaches, then try the
    continuation from the longest (greedy) or the shortest (lazy) count."""
    low = code[pc + 1]
    high = code[pc + 2]
    item = code[pc + 4]
    nxt = code[pc + 5]
    limit = state.end - pos
    if high != _NO_MAX and high < limit:
        limit = high
    if code[pc + 3] != 0:
        count = 0
        while count < limit and _one(state, code, item, string, pos + count):
            count += 1
        if count < low:
            return False
        while count >= low:
            if _match(state, code, nxt, string, pos + count):
                return True
            count -= 1
        return False
    count = 0
    while count < low:
        if count >= limit or not _one(state, code, item, string, pos + count):
            return False
        count += 1
    while True:
        if _match(state, code, nxt, string, pos + count):
            return True
        if count >= limit or not _one(state, code, item, string, pos + count):
            return False
        count += 1


@specialize.argtype(3)
def _repeat_step(state, code, pc, string, pos):
    """At the REPEAT node `pc` after some iterations (its register holds how many, and
    where the last one began): one more iteration or the continuation, in the order
    greediness gives. An iteration that matched nothing ends the repetition."""
    low = code[pc + 1]
    high = code[pc + 2]
    greedy = code[pc + 3] != 0
    body = code[pc + 4]
    reg = 2 * code[pc + 5]
    nxt = code[pc + 6]
    count = state.regs[reg]
    last = state.regs[reg + 1]
    if count > 0 and pos == last:
        # an empty iteration: more of them would loop for ever
        if count < low:
            count = low
        return _match(state, code, nxt, string, pos)
    if count < low:
        return _iterate(state, code, body, reg, count, string, pos)
    more = high == _NO_MAX or count < high
    if greedy:
        if more and _iterate(state, code, body, reg, count, string, pos):
            return True
        return _leave(state, code, nxt, reg, count, last, string, pos)
    if _leave(state, code, nxt, reg, count, last, string, pos):
        return True
    return more and _iterate(state, code, body, reg, count, string, pos)


@specialize.argtype(5)
def _iterate(state, code, body, reg, count, string, pos):
    old_last = state.regs[reg + 1]
    state.regs[reg] = count + 1
    state.regs[reg + 1] = pos
    if _match(state, code, body, string, pos):
        return True
    state.regs[reg] = count
    state.regs[reg + 1] = old_last
    return False


@specialize.argtype(6)
def _leave(state, code, nxt, reg, count, last, string, pos):
    # the continuation may enter this repetition again (an outer loop): it starts afresh
    # there, and finds this iteration's count restored when it backtracks
    if _match(state, code, nxt, string, pos):
        return True
    state.regs[reg] = count
    state.regs[reg + 1] = last
    return False


class RSREPattern(object):
    """A compiled pattern: its program (a prebuilt list of integers) and groups."""

    def __init__(self, pattern, flags, code, start, registers, groups, groupindex):
        self.pattern = pattern
        self.flags = flags
        self._code = code
        self._start = start
        self._registers = registers
        self.groups = groups
        self.groupindex = groupindex

    @specialize.argtype(1)
    def _match_at(self, string, pos, end):
        state = _State(2 * self.groups + 2, self._registers, end)
        state.marks[0] = pos
        if _match(state, self._code, self._start, string, pos):
            state.marks[1] = state.match_end
            return state
        return None

    @specialize.argtype(1)
    def _search(self, string, pos, end):
        while pos <= end:
            state = self._match_at(string, pos, end)
            if state is not None:
                return state
            pos += 1
        return None

    @specialize.argtype(1)
    def _bounds(self, string, pos, endpos):
        n = len(string)
        if endpos > n:
            endpos = n
        if pos < 0:
            pos = 0
        return pos, endpos

    @specialize.argtype(1)
    def match(self, string, pos=0, endpos=sys.maxint):
        pos, end = self._bounds(string, pos, endpos)
        if pos > end:
            return None
        return self._make(string, self._match_at(string, pos, end))

    @specialize.argtype(1)
    def search(self, string, pos=0, endpos=sys.maxint):
        pos, end = self._bounds(string, pos, endpos)
        return self._make(string, self._search(string, pos, end))

    @specialize.argtype(1)
    def _make(self, string, state):
        if state is None:
            return None
        return RSREMatch(self, string, state.marks)

    @specialize.argtype(1)
    def findall(self, string, pos=0, endpos=sys.maxint):
        assert self.groups <= 1, "findall() with more than one group is not RPython"
        pos, end = self._bounds(string, pos, endpos)
        result = []
        while pos <= end:
            state = self._search(string, pos, end)
            if state is None:
                break
            m = RSREMatch(self, string, state.marks)
            result.append(m.group(self.groups))
            stop = state.marks[1]
            if stop == state.marks[0]:
                stop += 1
            pos = stop
        return result

    @specialize.argtype(1)
    def finditer(self, string, pos=0, endpos=sys.maxint):
        pos, end = self._bounds(string, pos, endpos)
        while pos <= end:
            state = self._search(string, pos, end)
            if state is None:
                break
            yield RSREMatch(self, string, state.marks)
            stop = state.marks[1]
            if stop == state.marks[0]:
                stop += 1
            pos = stop

    @specialize.argtype(1)
    def split(self, string, maxsplit=0):
        result = []
        start = 0
        last = 0
        n = 0
        end = len(string)
        while maxsplit == 0 or n < maxsplit:
            state = self._search(string, start, end)
            if state is None:
                break
            mstart = state.marks[0]
            mend = state.marks[1]
            if mstart == mend:
                # an empty match does not split (Python 2's re)
                if mstart >= end:
                    break
                start = mend + 1
                continue
            assert last >= 0
            assert mstart >= 0
            result.append(string[last:mstart])
            if self.groups:
                m = RSREMatch(self, string, state.marks)
                g = 1
                while g <= self.groups:
                    result.append(m.group(g))
                    g += 1
            n += 1
            last = start = mend
        assert last >= 0
        result.append(string[last:])
        return result


class RSREMatch(object):
    """A match: the text and the spans of the groups (-1 where a group did not take
    part)."""

    def __init__(self, pattern, string, marks):
        self.re = pattern
        self.string = string
        self._marks = marks

    def start(self, groupnum=0):
        return self._marks[2 * groupnum]

    def end(self, groupnum=0):
        return self._marks[2 * groupnum + 1]

    def span(self, groupnum=0):
        return self._marks[2 * groupnum], self._marks[2 * groupnum + 1]

    def group(self, group=0):
        start = self._marks[2 * group]
        stop = self._marks[2 * group + 1]
        if start < 0 or stop < start:
            return None
        assert start >= 0
        assert stop >= 0
        return self.string[start:stop]

    def groups(self, default=None):
        result = []
        g = 1
        while g <= self.re.groups:
            value = self.group(g)
            if value is None:
                value = default
            result.append(value)
            g += 1
        return result


@specialize.memo()
def compile(pattern, flags=0):
    info = re_program(pattern, flags)
    if isinstance(info, str):
        raise error(info)
    code, start, registers, groups, names = info
    groupindex = {}
    for name, index in names:
        groupindex[name] = index
    return RSREPattern(pattern, flags, code, start, registers, groups, groupindex)


@specialize.call_location()
def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


@specialize.call_location()
def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


@specialize.call_location()
def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


@specialize.call_location()
def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


@specialize.call_location()
def split(pattern, string, maxsplit=0):
    return compile(pattern).split(string, maxsplit)
