"""The packrat parser: `Rule`s (a nonterminal and its expansions, lists of symbols),
`PackratParser.parse(tokens)` trying expansions in order with every (position, symbol)
result memoised in a `LazyParseTable`, and `ParseError` with the furthest failure's
expected symbols (`ErrorInformation`)."""

from rpython.rlib.parsing.lexer import SourcePos
from rpython.rlib.parsing.tree import Node, Symbol, Nonterminal
from rpython.rlib.parsing import _unknown


class Rule(object):
    def __init__(self, nonterminal, expansions):
        self.nonterminal = nonterminal
        self.expansions = expansions

    def __eq__(self, other):
        return (self.nonterminal == other.nonterminal and
                self.expansions == other.expansions)

    def __ne__(self, other):
        return not self == other

    def __str__(self):
        return "%s: %s" % (
            self.nonterminal, " | ".join([repr(e) for e in self.expansions]))

    def __repr__(self):
        return "Rule(%r, %r)" % (self.nonterminal, self.expansions)


class LazyInputStream(object):
    def __init__(self, iterator):
        self.iterator = iter(iterator)
        self.data = []

    def __getitem__(self, index):
        assert index >= 0
        while len(self.data) <= index:
            try:
                self.data.append(self.iterator.next())
            except StopIteration:
                raise IndexError("index out of range")
        return self.data[index]


class ErrorInformation(object):
    def __init__(self, pos, failure_reasons=None):
        if failure_reasons is None:
            failure_reasons = []
        self.failure_reasons = failure_reasons
        self.pos = pos


class ParseError(Exception):
    def __init__(self, source_pos, errorinformation):
        self.source_pos = source_pos
        self.errorinformation = errorinformation
        self.args = (source_pos, errorinformation)

    def nice_error_message(self, filename="<unknown>", source=""):
        # Positions are 0-based, the message 1-based.
        result = ["  File %s, line %s" % (filename, self.source_pos.lineno + 1)]
        if source:
            result.append(source.split("\n")[self.source_pos.lineno])
            result.append(" " * self.source_pos.columnno + "^")
        else:
            result.append("<couldn't get source>")
        info = self.errorinformation
        if info:
            reasons = info.failure_reasons
            if len(reasons) > 1:
                quoted = ["'%s'" % reason for reason in reasons[:-1]]
                expected = "%s or '%s'" % (", ".join(quoted), reasons[-1])
            else:
                expected = reasons[0]
            result.append("ParseError: expected %s" % (expected,))
        else:
            result.append("ParseError")
        return "\n".join(result)


def combine_errors(first, second):
    """The failure to report of two: the one further on; at the same position, the
    union of their expected symbols (in order)."""
    if first is None:
        return second
    if second is None or first.pos > second.pos or not second.failure_reasons:
        return first
    if second.pos > first.pos or not first.failure_reasons:
        return second
    reasons = list(first.failure_reasons)
    for reason in second.failure_reasons:
        if reason not in reasons:
            reasons.append(reason)
    return ErrorInformation(first.pos, reasons)


def _expected_name(symbol):
    # The EBNF front end names a literal token `__<n>_<text>`: report the text.
    if symbol.startswith("__"):
        parts = symbol.split("_")
        if len(parts) > 2 and parts[2] and parts[2][0] in "0123456789":
            return parts[-1]
    return symbol


class LazyParseTable(object):
    def __init__(self, input, parser):
        self.parser = parser
        self.input = input
        # symbol -> {position: (node, next position, error)}; nested so that a lookup
        # builds no key.
        self.matched = {}
        self.errorinformation = {}

    def match_symbol(self, i, symbol):
        """(node, next position, error) for symbol at token i; node is None when it
        does not match there."""
        memo = self.matched.get(symbol, None)
        if memo is None:
            memo = {}
            self.matched[symbol] = memo
        elif i in memo:
            return memo[i]
        rule = self.parser.nonterminal_to_rule.get(symbol, None)
        if rule is None:
            result = self.match_terminal(i, symbol)
            memo[i] = result
            return result
        error = None
        for expansion in rule.expansions:
            position = i
            children = []
            failed = False
            for subsymbol in expansion:
                node, after, suberror = self.match_symbol(position, subsymbol)
                if node is None:
                    error = combine_errors(error, suberror)
                    failed = True
                    break
                children.append(node)
                position = after
            if not failed:
                result = (Nonterminal(symbol, children), position, error)
                memo[i] = result
                return result
        failure = (None, 0, error)
        memo[i] = failure
        return failure

    def match_terminal(self, i, symbol):
        if i < len(self.input):
            token = self.input[i]
            if self.terminal_equality(symbol, token):
                return (Symbol(symbol, token.source, token), i + 1, None)
            return (None, 0, ErrorInformation(i, [_expected_name(symbol)]))
        return (None, 0, ErrorInformation(i))

    def terminal_equality(self, symbol, input):
        return symbol == input.name


class PackratParser(object):
    def __init__(self, rules, startsymbol, parsetablefactory=LazyParseTable,
                 check_for_left_recursion=True):
        self.rules = rules
        self.nonterminal_to_rule = {}
        for rule in rules:
            self.nonterminal_to_rule[rule.nonterminal] = rule
        self.startsymbol = startsymbol
        if check_for_left_recursion:
            assert not self.has_left_recursion()
        self.parsetablefactory = parsetablefactory

    def is_nonterminal(self, symbol):
        return symbol in self.nonterminal_to_rule

    def get_rule(self, symbol):
        return self.nonterminal_to_rule[symbol]

    def parse(self, tokeniterator, lazy=False):
        if not _unknown.known_list(tokeniterator):
            return tokeniterator
        input = list(tokeniterator)
        table = self.parsetablefactory(input, self)
        node, after, error = table.match_symbol(0, self.startsymbol)
        if node is None:
            raise ParseError(input[error.pos].source_pos, error)
        return node

    def has_left_recursion(self):
        """Whether a nonterminal can start with itself (import time)."""
        first = {}
        for rule in self.rules:
            starts = {}
            for expansion in rule.expansions:
                if expansion and self.is_nonterminal(expansion[0]):
                    starts[expansion[0]] = True
            first[rule.nonterminal] = starts
        changed = True
        while changed:
            changed = False
            for name in first:
                starts = first[name]
                for other in list(starts.keys()):
                    for reached in first[other]:
                        if reached not in starts:
                            starts[reached] = True
                            changed = True
        for name in first:
            if name in first[name]:
                return True
        return False

    def __repr__(self):
        return "%s(%r, %r)" % (self.__class__.__name__, self.rules, self.startsymbol)
