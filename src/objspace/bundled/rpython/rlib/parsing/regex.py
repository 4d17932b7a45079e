"""Regular expressions as objects (`StringExpression`, `RangeExpression`, `+` for
concatenation, `|` for alternation, `kleene()`, `* n`), compiled at import time into a
Thompson automaton (`Automaton`): every state has epsilon successors and at most one
character transition, given as a 256-byte mask. `match_longest` runs one at translation
and run time alike."""

from rpython.rlib.parsing.deterministic import DFA

_NO = "\x00"
_YES = "\x01"


def _mask(chars):
    # chars: a string of the accepted characters.
    flags = [_NO] * 256
    for c in chars:
        flags[ord(c)] = _YES
    return "".join(flags)


class _Builder(object):
    """Collects the states of one automaton while expressions add their fragments."""

    def __init__(self):
        self.eps = []
        self.masks = []
        self.nexts = []
        self.accepts = []

    def state(self):
        self.eps.append([])
        self.masks.append("")
        self.nexts.append(-1)
        self.accepts.append(-1)
        return len(self.eps) - 1

    def epsilon(self, a, b):
        self.eps[a].append(b)

    def chars(self, a, mask, b):
        self.masks[a] = mask
        self.nexts[a] = b


class RegularExpression(object):
    def make_automaton(self):
        return make_token_automaton([self], ["match"])

    def fragment(self, builder):
        # Returns (entry, exit) states of this expression in builder.
        raise NotImplementedError

    def __add__(self, other):
        return AddExpression(self, other)

    def __or__(self, other):
        return OrExpression(self, other)

    def __pos__(self):
        return AddExpression(self, self.kleene())

    def __mul__(self, n):
        result = StringExpression("")
        for i in range(n):
            result = result + self
        return result

    def kleene(self):
        return KleeneClosure(self)


class StringExpression(RegularExpression):
    def __init__(self, s):
        self.string = s

    def fragment(self, builder):
        entry = builder.state()
        current = entry
        for c in self.string:
            nxt = builder.state()
            builder.chars(current, _mask(c), nxt)
            current = nxt
        return entry, current

    def __repr__(self):
        return "StringExpression(%r)" % (self.string,)


class CharSetExpression(RegularExpression):
    """Any one character of a set (the model's form of a character class)."""

    def __init__(self, chars):
        self.chars = chars

    def fragment(self, builder):
        entry = builder.state()
        exit = builder.state()
        builder.chars(entry, _mask(self.chars), exit)
        return entry, exit

    def __repr__(self):
        return "CharSetExpression(%r)" % (self.chars,)


class RangeExpression(CharSetExpression):
    def __init__(self, fromchar, tochar):
        chars = []
        for code in range(ord(fromchar), ord(tochar) + 1):
            chars.append(chr(code))
        CharSetExpression.__init__(self, "".join(chars))
        self.fromchar = fromchar
        self.tochar = tochar

    def __repr__(self):
        return "RangeExpression(%r, %r)" % (self.fromchar, self.tochar)


class AddExpression(RegularExpression):
    def __init__(self, rega, regb):
        self.rega = rega
        self.regb = regb

    def fragment(self, builder):
        a_in, a_out = self.rega.fragment(builder)
        b_in, b_out = self.regb.fragment(builder)
        builder.epsilon(a_out, b_in)
        return a_in, b_out

    def __repr__(self):
        return "AddExpression(%r, %r)" % (self.rega, self.regb)


class OrExpression(RegularExpression):
    def __init__(self, rega, regb):
        self.rega = rega
        self.regb = regb

    def fragment(self, builder):
        entry = builder.state()
        a_in, a_out = self.rega.fragment(builder)
        b_in, b_out = self.regb.fragment(builder)
        exit = builder.state()
        builder.epsilon(entry, a_in)
        builder.epsilon(entry, b_in)
        builder.epsilon(a_out, exit)
        builder.epsilon(b_out, exit)
        return entry, exit

    def __repr__(self):
        return "OrExpression(%r, %r)" % (self.rega, self.regb)


class KleeneClosure(RegularExpression):
    def __init__(self, regex):
        self.regex = regex

    def fragment(self, builder):
        entry = builder.state()
        inner_in, inner_out = self.regex.fragment(builder)
        exit = builder.state()
        builder.epsilon(entry, inner_in)
        builder.epsilon(entry, exit)
        builder.epsilon(inner_out, inner_in)
        builder.epsilon(inner_out, exit)
        return entry, exit

    def __repr__(self):
        return "KleeneClosure(%r)" % (self.regex,)


class Automaton(DFA):
    """A Thompson automaton recognising several token expressions at once. `names[t]`
    is the name of token t; an accepting state holds the index of the first token with
    its name, so on equally long matches the earliest name wins."""

    def __init__(self, builder, start, names):
        DFA.__init__(self, len(builder.eps), None, None, None, names)
        self.eps = builder.eps
        self.masks = builder.masks
        self.nexts = builder.nexts
        self.accepts = builder.accepts
        self.start = start

    def make_deterministic(self, name_precedence=None):
        """The reference builds a DFA whose states are sets of these states, named by
        the token that comes first in `name_precedence` on a tie: the automaton itself
        already matches so (the earliest name wins), run as a set of states."""
        return self

    def generate_lexing_code(self):
        """Python source that defines `recognize(runner, i)`, the matcher of this
        automaton (the reference writes out a DFA's transitions as an `if` chain;
        programs `exec` it, and give the function and the automaton to a
        `LexingDFARunner`)."""
        return ("from rpython.rlib.parsing.lexer import "
                "recognize_with_automaton as recognize\n")


def make_token_automaton(regexs, names):
    builder = _Builder()
    start = builder.state()
    for index in range(len(regexs)):
        entry, exit = regexs[index].fragment(builder)
        builder.epsilon(start, entry)
        builder.accepts[exit] = names.index(names[index])
    return Automaton(builder, start, list(names))


class LexingOrExpression(RegularExpression):
    def __init__(self, regs, names):
        self.regs = regs
        self.names = names

    def make_automaton(self):
        return make_token_automaton(self.regs, self.names)


def _close(automaton, state, out, mark, generation):
    # Adds state and its epsilon successors to out (once per generation).
    stack = [state]
    while stack:
        s = stack.pop()
        if mark[s] == generation:
            continue
        mark[s] = generation
        out.append(s)
        for t in automaton.eps[s]:
            stack.append(t)


class Match(object):
    """Result of `match_longest`: the end (exclusive) and token of the longest non-empty
    match (`stop == -1`: none), and `failed_at`, the index after the character where the
    automaton had no way on (or the text's length)."""

    def __init__(self):
        self.stop = -1
        self.token = -1
        self.failed_at = 0


def match_longest(automaton, text, i):
    result = Match()
    mark = [0] * len(automaton.eps)
    generation = 1
    current = []
    _close(automaton, automaton.start, current, mark, generation)
    n = len(text)
    while i < n:
        code = ord(text[i])
        i += 1
        generation += 1
        following = []
        for s in current:
            mask = automaton.masks[s]
            if mask and mask[code] == _YES:
                _close(automaton, automaton.nexts[s], following, mark, generation)
        if not following:
            result.failed_at = i
            return result
        best = -1
        for s in following:
            token = automaton.accepts[s]
            if token >= 0 and (best < 0 or token < best):
                best = token
        if best >= 0:
            result.stop = i
            result.token = best
        current = following
    result.failed_at = i
    return result
