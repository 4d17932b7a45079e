"""rpy-lsp's model of `rpython.rlib.parsing.makepackrat`: a class deriving from
`PackratParser` whose docstring is a grammar gets, when the class statement runs, one pair
of methods per production (`name()` and the memoising `_name()` returning a `Status`),
generated as Python source and compiled at import time as rpython 0.2.1 does, with the
same statements: what the annotator sees (every production's result goes through the one
`Status.result` attribute; `*` and `+` give lists, regexes and quotes strings) is what
the reference's annotator sees. Regexes are matched by the Thompson automata of our
`regex` model instead of generated DFA code. The grammar language: productions
`name(args): alternatives;` with `|` between alternatives and, in a sequence, regexes in
backquotes, quoted literals, calls `name` / `name({arg})`, `x = command`,
`return {code}`, `if {cond}`, `do command if {cond}`, `choose x in {iterable} commands`,
`command?`, `command*`, `command+`, `!command`, `<command>`, `[ignored]` and `( )`."""

import sys
from rpython.rlib.parsing.tree import Nonterminal, Symbol
from rpython.rlib.parsing.regexparse import parse_regex
from rpython.rlib.parsing.regex import match_longest
from rpython.rlib.parsing._packrat_grammar import read_grammar, GrammarError
from rpython.rlib.parsing._packrat_codegen import ParserBuilder
from rpython.rlib.objectmodel import we_are_translated
from __rpy__ import model_unknown


class BacktrackException(Exception):
    """A parse failed here; `error` (an ErrorInformation, or None) says what was wanted."""

    def __init__(self, error=None):
        if not we_are_translated():
            # untranslated callers see the error in args and str()
            Exception.__init__(self, error)
        self.error = error


class ErrorInformation(object):
    """Where a parse failed (`pos`, an index into the input) and the list of things
    that would have done there (`expected`)."""

    def __init__(self, pos, expected=None):
        self.pos = pos
        if expected is None:
            expected = []
        self.expected = expected

    def __str__(self):
        return "ErrorInformation(%s, %s)" % (self.pos, self.expected)

    def get_line_column(self, source):
        """(line, column) of pos: the line counted from 0, the column from 1."""
        pos = self.pos
        assert pos >= 0
        head = source[:pos]
        line_start = head.rfind("\n")  # -1 on the first line
        return head.count("\n"), pos - line_start

    def nice_error_message(self, filename='<filename>', source=""):
        # As rpython 0.2.1: the list of lines is made only when there is a source, yet
        # the other branch appends to it too. Building the flow graph of this method
        # fails there (a local read before it is assigned), so the reference refuses
        # every program that calls it.
        if source:
            row, col = self.get_line_column(source)
            lines = ["  File %s, line %s" % (filename, row + 1)]
            lines.append(source.split("\n")[row])
            lines.append(" " * col + "^")
        else:
            lines.append("<couldn't get source>")
        wanted = self.expected
        if not wanted:
            lines.append("ParseError")
        else:
            if len(wanted) == 1:
                what = wanted[0]
            else:
                # all but the last quoted and comma-separated, "or" before the last
                head = ["'%s'" % (w,) for w in wanted[:-1]]
                what = ", ".join(head) + " or '%s'" % (wanted[-1],)
            lines.append("ParseError: expected %s" % (what,))
        return "\n".join(lines)


class Status(object):
    """The memo of one production at one position: its state (one of the codes below),
    where it ended, its result and its error."""

    NORMAL = 0          # parsed: result and pos are known
    ERROR = 1           # failed: error says why
    INPROGRESS = 2      # being parsed now
    LEFTRECURSION = 3   # met again while in progress
    SOMESOLUTIONS = 4   # a left recursion being grown

    def __init__(self):
        self.status = self.INPROGRESS
        self.pos = 0
        self.result = None
        self.error = None


def _longest_prefix(automaton, text, pos):
    """The end of the longest match of automaton at text[pos:] (an empty match counts),
    or -1."""
    match = match_longest(automaton, text, pos)
    if match.stop >= 0:
        return match.stop
    # the empty match: the start state's closure accepts
    seen = [False] * len(automaton.eps)
    stack = [automaton.start]
    while stack:
        s = stack.pop()
        if seen[s]:
            continue
        seen[s] = True
        if automaton.accepts[s] >= 0:
            return pos
        for t in automaton.eps[s]:
            stack.append(t)
    return -1


_NOT_COPIED = ("__weakref__", "__doc__", "__dict__", "__module__")


class MetaPackratParser(type):
    """Gives a PackratParser subclass whose docstring is a grammar its parsing methods,
    when its class statement runs."""

    def __new__(cls, name_, bases, dct):
        grammar_text = dct.get('__doc__')
        if grammar_text is None:
            return type.__new__(cls, name_, bases, dct)
        try:
            productions = read_grammar(grammar_text)
        except GrammarError:
            # a grammar rpy-lsp's reader does not follow: the parser class is unknown
            return model_unknown("the parser class %s (its grammar is not read by rpy-lsp)"
                                 % name_)
        builder = ParserBuilder()
        holder = "_packrat_parser_of_%s" % name_
        source = builder.build(productions, holder)
        # The generated methods run with the globals of the module that defines the
        # parser (code in the grammar uses its names), so they are compiled there.
        module_globals = sys._getframe(1).f_globals
        for needed in ("BacktrackException", "Status"):
            if needed not in module_globals:
                raise Exception("must import %s" % (needed,))
        exec compile(source, "<packrat parser %s>" % name_, "exec") in module_globals
        # (rpy-lsp's f_globals is a view of the module as it was when asked)
        generated = sys._getframe(1).f_globals[holder].__dict__
        parser_class = type.__new__(cls, name_, bases, dct)
        for key, value in generated.items():
            # what the user's class (or a base) defines stays
            if key not in _NOT_COPIED and not hasattr(parser_class, key):
                setattr(parser_class, key, value)
        if parser_class.__init__ == object.__init__:
            parser_class.__init__ = generated['__init__']
        parser_class.init_parser = generated['__init__']
        parser_class._automata = [parse_regex(text).make_automaton()
                                  for text in builder.regexes]
        parser_class._code = source
        return parser_class


# The base of grammar-docstring parsers (without a docstring: that would be a grammar);
# an instance parses the input it was made with, from position `_pos`.
class PackratParser(object):
    __metaclass__ = MetaPackratParser

    _ErrorInformation = ErrorInformation
    _BacktrackException = BacktrackException

    def __chars__(self, chars):
        """Matches the literal `chars` here and answers it."""
        text = self._inputstream
        at = self._pos
        i = 0
        try:
            while i < len(chars):
                if text[at + i] != chars[i]:
                    break
                i += 1
            else:
                self._pos = at + len(chars)
                return chars
        except IndexError:
            pass
        raise BacktrackException(self._ErrorInformation(at, [chars]))

    def __any__(self):
        """Matches any one item here and answers it."""
        at = self._pos
        try:
            item = self._inputstream[at]
        except IndexError:
            raise BacktrackException(self._ErrorInformation(at, ['anything']))
        self._pos = at + 1
        return item

    def _match_regex(self, index):
        """Matches the grammar's index-th regex here (its longest match) and answers the
        text matched; a regex failing says nothing about what it wanted."""
        start = self._pos
        assert start >= 0
        stop = _longest_prefix(self._automata[index], self._inputstream, start)
        if stop < 0:
            raise BacktrackException(None)
        assert stop >= 0
        self._pos = stop
        return self._inputstream[start:stop]

    def _combine_errors(self, error1, error2):
        """The error to report of two: the one further on, or, at the same place, one
        listing everything either expected (a list saying nothing loses)."""
        if error1 is None:
            return error2
        if error2 is None or error1.pos > error2.pos or not error2.expected:
            return error1
        if error2.pos > error1.pos or not error1.expected:
            return error2
        merged = []
        for reason in error1.expected + error2.expected:
            if reason not in merged:
                merged.append(reason)
        return ErrorInformation(error1.pos, merged)
