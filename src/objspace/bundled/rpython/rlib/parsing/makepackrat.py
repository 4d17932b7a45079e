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
    def __init__(self, error=None):
        self.error = error
        if not we_are_translated():
            Exception.__init__(self, error)


class ErrorInformation(object):
    def __init__(self, pos, expected=None):
        if expected is None:
            expected = []
        self.expected = expected
        self.pos = pos

    def __str__(self):
        return "ErrorInformation(%s, %s)" % (self.pos, self.expected)

    def get_line_column(self, source):
        pos = self.pos
        assert pos >= 0
        before = source[:pos]
        lineno = before.count("\n")
        columnno = pos - before.rfind("\n")
        return lineno, columnno

    def nice_error_message(self, filename='<filename>', source=""):
        result = []
        if source:
            lineno, columnno = self.get_line_column(source)
            result.append("  File %s, line %s" % (filename, lineno + 1))
            result.append(source.split("\n")[lineno])
            result.append(" " * columnno + "^")
        else:
            result.append("<couldn't get source>")
        if self.expected:
            reasons = self.expected
            if len(reasons) > 1:
                quoted = ["'%s'" % e for e in reasons[:-1]]
                expected = "%s or '%s'" % (", ".join(quoted), reasons[-1])
            else:
                expected = reasons[0]
            result.append("ParseError: expected %s" % (expected, ))
        else:
            result.append("ParseError")
        return "\n".join(result)


class Status(object):
    # status codes
    NORMAL = 0
    ERROR = 1
    INPROGRESS = 2
    LEFTRECURSION = 3
    SOMESOLUTIONS = 4

    def __init__(self):
        self.pos = 0
        self.error = None
        self.status = self.INPROGRESS
        self.result = None


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


def _make_automaton(regex_text):
    regex = parse_regex(regex_text)
    return regex.make_automaton()


class MetaPackratParser(type):
    # The class statement of a parser with a grammar docstring builds its methods.
    def __new__(cls, name_, bases, dct):
        if '__doc__' not in dct or dct['__doc__'] is None:
            return type.__new__(cls, name_, bases, dct)
        frame = sys._getframe(1)
        try:
            grammar = read_grammar(dct['__doc__'])
        except GrammarError:
            # a grammar rpy-lsp's reader does not follow: the parser class is unknown
            return model_unknown("the parser class %s (its grammar is not read by rpy-lsp)"
                                 % name_)
        builder = ParserBuilder()
        classname = "_packrat_parser_of_%s" % name_
        source = builder.build(grammar, classname)
        globals_ = frame.f_globals
        if 'BacktrackException' not in globals_:
            raise Exception("must import BacktrackException")
        if 'Status' not in globals_:
            raise Exception("must import Status")
        # The generated functions read the names of the module defining the parser (the
        # reference rebinds them to its globals): the class is built there, under a name
        # of its own.
        exec compile(source, "<packrat parser %s>" % name_, "exec") in globals_
        made = sys._getframe(1).f_globals[classname]
        automata = [_make_automaton(r) for r in builder.regexes]
        result = type.__new__(cls, name_, bases, dct)
        forbidden = {"__weakref__": None, "__doc__": None, "__dict__": None,
                     "__module__": None}
        for key, value in made.__dict__.items():
            if key not in forbidden and not hasattr(result, key):
                setattr(result, key, value)
        if result.__init__ == object.__init__:
            result.__init__ = made.__dict__['__init__']
        result.init_parser = made.__dict__['__init__']
        result._automata = automata
        result._code = source
        return result


class PackratParser(object):
    __metaclass__ = MetaPackratParser

    _ErrorInformation = ErrorInformation
    _BacktrackException = BacktrackException

    def __chars__(self, chars):
        try:
            for i in range(len(chars)):
                if self._inputstream[self._pos + i] != chars[i]:
                    raise BacktrackException(
                        self._ErrorInformation(self._pos, [chars]))
            self._pos += len(chars)
            return chars
        except IndexError:
            raise BacktrackException(
                self._ErrorInformation(self._pos, [chars]))

    def __any__(self):
        try:
            result = self._inputstream[self._pos]
            self._pos += 1
            return result
        except IndexError:
            raise BacktrackException(
                self._ErrorInformation(self._pos, ['anything']))

    def _regex_end(self, index):
        pos = self._pos
        assert pos >= 0
        return _longest_prefix(self._automata[index], self._inputstream, pos)

    def _combine_errors(self, error1, error2):
        if error1 is None:
            return error2
        if (error2 is None or error1.pos > error2.pos or
                len(error2.expected) == 0):
            return error1
        elif error2.pos > error1.pos or len(error1.expected) == 0:
            return error2
        expected = []
        already_there = {}
        for ep in [error1.expected, error2.expected]:
            for reason in ep:
                if reason not in already_there:
                    already_there[reason] = True
                    expected.append(reason)
        return ErrorInformation(error1.pos, expected)
