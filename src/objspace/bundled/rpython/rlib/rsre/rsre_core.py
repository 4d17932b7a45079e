"""rpy-lsp's model of `rpython.rlib.rsre.rsre_core`: matching a pattern compiled at import
time (`rpython.rlib.rsre.rpy.get_code`) against a string in translated code, through a
match context (rply's lexer does this). The signatures are the reference's (rpython
0.2.1: a context takes the pattern, `match_context(ctx)` one argument); the matcher is the
one of the `rsre_re` model. A pattern here is the list `get_code` gives: the program of
`objspace/regex/program.rs` followed by its start node, register and group counts and
`OWN_PROGRAM`; or a list of `sre` codes as the reference's compiler makes them, which
`_sre_code` matches."""
import sys
from rpython.rlib.objectmodel import specialize
from rpython.rlib.rsre.rsre_re import _State, _match
from rpython.rlib.rsre._sre_code import Attempt, match_at

# the last item of a pattern made by rpy-lsp's `get_code` (a list of `sre` codes ends
# with SUCCESS, 1): the pattern is matched by the program of rsre_re, otherwise by the
# matcher of `sre` codes. Non-negative, as every item of both is.
OWN_PROGRAM = 1380997409


class Error(Exception):
    def __init__(self, msg):
        self.msg = msg


class AbstractMatchContext(object):
    match_start = 0
    match_end = 0
    match_marks_flat = None
    fullmatch_only = False

    def __init__(self, pattern, match_start, end, flags):
        assert match_start >= 0
        assert end >= 0
        self.pattern = pattern
        self.match_start = match_start
        self.end = end
        self.flags = flags

    def reset(self, start):
        self.match_start = start
        self.match_marks_flat = None

    def flatten_marks(self):
        return self.match_marks_flat

    def span(self, groupnum=0):
        fmarks = self.match_marks_flat
        groupnum *= 2
        if fmarks is None or groupnum >= len(fmarks):
            return (-1, -1)
        return (fmarks[groupnum], fmarks[groupnum + 1])


class StrMatchContext(AbstractMatchContext):
    def __init__(self, pattern, string, match_start, end, flags):
        AbstractMatchContext.__init__(self, pattern, match_start, end, flags)
        self._string = string

    def str(self, index):
        return ord(self._string[index])

    def group(self, groupnum=0):
        first, last = self.span(groupnum)
        if not 0 <= first <= last:
            return None  # the group did not take part in the match
        return self._string[first:last]


class UnicodeMatchContext(AbstractMatchContext):
    def __init__(self, pattern, unicodestr, match_start, end, flags):
        AbstractMatchContext.__init__(self, pattern, match_start, end, flags)
        self._unicodestr = unicodestr

    def str(self, index):
        return ord(self._unicodestr[index])

    def group(self, groupnum=0):
        first, last = self.span(groupnum)
        if not 0 <= first <= last:
            return None  # the group did not take part in the match
        return self._unicodestr[first:last]


@specialize.argtype(0)
def _text(ctx):
    if isinstance(ctx, UnicodeMatchContext):
        return ctx._unicodestr
    return ctx._string


@specialize.argtype(0)
def _match_at(ctx, pos):
    code = ctx.pattern
    n = len(code)
    if n == 0 or code[n - 1] != OWN_PROGRAM:
        return _match_sre_at(ctx, pos)
    groups = code[n - 2]
    state = _State(2 * groups + 2, code[n - 3], ctx.end)
    state.marks[0] = pos
    if not _match(state, code, code[n - 4], _text(ctx), pos):
        return False
    if ctx.fullmatch_only and state.match_end != ctx.end:
        return False
    # a match ends at a position of the text, as the reference's `ctx.match_end = ptr`:
    # the attribute stays non-negative (`text[:ctx.match_end]` needs no assert)
    end = state.match_end
    assert end >= 0
    state.marks[1] = end
    ctx.match_start = pos
    ctx.match_end = end
    ctx.match_marks_flat = state.marks
    return True


@specialize.argtype(0)
def _match_sre_at(ctx, pos):
    # a pattern of `sre` codes (written in the program, as the reference's own
    # compiler makes them)
    st = Attempt(ctx.pattern, ctx.end, ctx.flags, ctx.fullmatch_only)
    if not match_at(st, _text(ctx), pos):
        return False
    end = st.match_end
    assert end >= 0
    ctx.match_start = pos
    ctx.match_end = end
    ctx.match_marks_flat = st.flat_marks(pos)
    return True


@specialize.argtype(0)
def match_context(ctx):
    if ctx.end < ctx.match_start:
        return False
    return _match_at(ctx, ctx.match_start)


@specialize.argtype(0)
def search_context(ctx):
    pos = ctx.match_start
    while pos <= ctx.end:
        if _match_at(ctx, pos):
            return True
        pos += 1
    return False


def _clamp(index, length):
    # start and end are brought into 0..length before matching, as slicing does
    if index < 0:
        return 0
    if index > length:
        return length
    return index


def _string_context(pattern, string, start, end, flags):
    length = len(string)
    return StrMatchContext(pattern, string, _clamp(start, length), _clamp(end, length),
                           flags)


def match(pattern, string, start=0, end=sys.maxint, flags=0, fullmatch=False):
    context = _string_context(pattern, string, start, end, flags)
    context.fullmatch_only = fullmatch
    if not match_context(context):
        return None
    return context


def fullmatch(pattern, string, start=0, end=sys.maxint, flags=0):
    return match(pattern, string, start, end, flags, fullmatch=True)


def search(pattern, string, start=0, end=sys.maxint, flags=0):
    context = _string_context(pattern, string, start, end, flags)
    if not search_context(context):
        return None
    return context
