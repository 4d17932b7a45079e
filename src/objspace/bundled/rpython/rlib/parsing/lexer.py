"""Tokens, source positions and the `Lexer`: longest match over the token expressions
(on a tie the name listed first wins), names in `ignore` skipped, an `EOF` token at the
end on request. A `DummyLexer` takes a pre-generated `recognize(runner, i)` function and
its `DFA` instead; both follow the same protocol (`runner.last_matched_index`/`_state`,
`~i` when the automaton stopped before the end)."""

from rpython.rlib.parsing import deterministic, _unknown
from rpython.rlib.parsing.regex import Automaton, LexingOrExpression, match_longest


class Token(object):
    def __init__(self, name, source, source_pos):
        self.name = name
        self.source = source
        self.source_pos = source_pos

    def copy(self):
        return Token(self.name, self.source, self.source_pos)

    def __repr__(self):
        return "Token(%r, %r, %r)" % (self.name, self.source, self.source_pos)


class SourcePos(object):
    """A position in the source: index, line and column (all 0-based)."""

    def __init__(self, i, lineno, columnno):
        self.i = i
        self.lineno = lineno
        self.columnno = columnno

    def copy(self):
        return SourcePos(self.i, self.lineno, self.columnno)

    def __repr__(self):
        return "SourcePos(%r, %r, %r)" % (self.i, self.lineno, self.columnno)


def recognize_with_automaton(runner, i):
    """The matcher of `Lexer`: runs its automaton from i, records the longest match in
    the runner and returns the index after the last character read, inverted (`~`)."""
    automaton = runner.automaton
    assert isinstance(automaton, Automaton)
    match = match_longest(automaton, runner.text, i)
    if match.stop >= 0:
        runner.last_matched_index = match.stop - 1
        runner.last_matched_state = match.token
    runner.state = 0
    return ~match.failed_at


class Lexer(object):
    def __init__(self, token_regexs, names, ignore=None):
        self.token_regexs = token_regexs
        self.names = names
        self.rex = LexingOrExpression(token_regexs, names)
        self.automaton = self.rex.make_automaton()
        if ignore is None:
            ignore = []
        self.ignore = {}
        for name in ignore:
            assert name in names
            self.ignore[name] = None
        self.matcher = recognize_with_automaton

    def get_runner(self, text, eof=False, token_class=None):
        return LexingDFARunner(self.matcher, self.automaton, text, self.ignore, eof)

    def tokenize(self, text, eof=False):
        """The tokens of text (a final `EOF` token when eof is true)."""
        if not _unknown.known_text(text):
            return text
        runner = self.get_runner(text, eof)
        result = []
        while True:
            token = runner.next_or_none()
            if token is None:
                break
            result.append(token)
        return result


class DummyLexer(Lexer):
    def __init__(self, matcher, automaton, ignore):
        self.token_regexs = None
        self.names = None
        self.rex = None
        self.automaton = automaton
        self.ignore = ignore
        self.matcher = matcher


class LexingDFARunner(object):
    def __init__(self, matcher, automaton, text, ignore, eof=False, token_class=None):
        self.matcher = matcher
        self.automaton = automaton
        self.text = text
        self.ignore = ignore
        self.eof = eof
        # the program's own token class makes the tokens (and its
        # `source_position_class` their positions)
        if not token_class:
            self.token_class = Token
            self.token_position_class = SourcePos
        else:
            self.token_class = token_class
            self.token_position_class = token_class.source_position_class
        self.state = 0
        self.last_matched_state = 0
        self.last_matched_index = -1
        self.lineno = 0
        self.columnno = 0

    def next_or_none(self):
        """The next token, or None after the last one."""
        text = self.text
        while True:
            self.state = 0
            start = self.last_matched_index + 1
            assert start >= 0
            if start == len(text) and self.eof:
                self.last_matched_index += 1
                return self.token_class("EOF", "EOF", self.token_position_class(
                    start, self.lineno, self.columnno))
            if start >= len(text):
                return None
            i = self.matcher(self, start)
            if i < 0:
                i = ~i
                stop = self.last_matched_index + 1
                assert stop >= 0
                if stop == start:
                    raise deterministic.LexerError(text, self.state, self.token_position_class(
                        i - 1, self.lineno, self.columnno))
                source = text[start:stop]
            elif self.last_matched_index == i - 1:
                source = text[start:]
            else:
                raise deterministic.LexerError(text, self.state, self.token_position_class(
                    i - 1, self.lineno, self.columnno))
            name = self.automaton.names[self.last_matched_state]
            token = self.token_class(name, source, self.token_position_class(
                start, self.lineno, self.columnno))
            self.adjust_position(source)
            if name in self.ignore:
                continue
            return token

    def find_next_token(self):
        token = self.next_or_none()
        if token is None:
            raise StopIteration
        return token

    next = find_next_token

    def __iter__(self):
        return self

    def adjust_position(self, token):
        # Moves the line and column past token. After a token holding newlines the
        # reference's column is the offset of its last newline within the token (not
        # the length after it); positions follow it.
        last_newline = token.rfind("\n")
        if last_newline < 0:
            self.columnno += len(token)
        else:
            self.lineno += token.count("\n")
            self.columnno = last_newline
