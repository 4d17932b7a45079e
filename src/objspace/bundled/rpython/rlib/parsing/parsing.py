"""The packrat parser: `Rule`s (a nonterminal and its expansions, lists of symbols),
`PackratParser.parse(tokens)` trying expansions in order with every (position, symbol)
result memoised in a `LazyParseTable`, and `ParseError` with the furthest failure's
expected symbols (`ErrorInformation`)."""

from rpython.rlib.parsing.lexer import SourcePos
from rpython.rlib.parsing.tree import Node, Symbol, Nonterminal
from rpython.rlib.parsing import _unknown


class Rule(object):
    """A nonterminal and its expansions (lists of symbol names), tried in order."""

    def __init__(self, nonterminal, expansions):
        self.nonterminal = nonterminal
        self.expansions = expansions

    def __eq__(self, other):
        return ((self.nonterminal, self.expansions) ==
                (other.nonterminal, other.expansions))

    def __ne__(self, other):
        return not self.__eq__(other)

    def __str__(self):
        alternatives = [repr(expansion) for expansion in self.expansions]
        return self.nonterminal + ": " + " | ".join(alternatives)

    def __repr__(self):
        return "Rule(%r, %r)" % (self.nonterminal, self.expansions)


class LazyInputStream(object):
    """A sequence read from an iterator as far as indexing needs."""

    def __init__(self, iterator):
        self.data = []
        self.iterator = iter(iterator)

    def __getitem__(self, index):
        assert index >= 0
        while len(self.data) <= index:
            # IndexError past the end, as a list would
            for item in self.iterator:
                self.data.append(item)
                break
            else:
                raise IndexError("index out of range")
        return self.data[index]


class ErrorInformation(object):
    """The furthest token position a parse reached (`pos`) and the symbols that could
    have come there (`failure_reasons`)."""

    def __init__(self, pos, failure_reasons=None):
        self.pos = pos
        self.failure_reasons = [] if failure_reasons is None else failure_reasons


def _expectation(reasons):
    # one reason as it is; several quoted, comma-separated, with "or" before the last
    if len(reasons) == 1:
        return reasons[0]
    quoted = ["'%s'" % (reason,) for reason in reasons]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


class ParseError(Exception):
    """The parse failed: where (a `SourcePos`) and what was expected there."""

    def __init__(self, source_pos, errorinformation):
        self.args = (source_pos, errorinformation)
        self.source_pos, self.errorinformation = self.args

    def nice_error_message(self, filename="<unknown>", source=""):
        where = self.source_pos
        # the position's line is counted from 0, the message's from 1
        lines = ["  File %s, line %s" % (filename, where.lineno + 1)]
        if not source:
            lines.append("<couldn't get source>")
        else:
            lines.append(source.split("\n")[where.lineno])
            lines.append(" " * where.columnno + "^")
        if not self.errorinformation:
            lines.append("ParseError")
        else:
            lines.append("ParseError: expected " +
                         _expectation(self.errorinformation.failure_reasons))
        return "\n".join(lines)


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
    """The memo of one parse: each symbol's result at each token position."""

    def __init__(self, input, parser):
        self.input = input
        self.parser = parser
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
    """Parses a token list by the rules from `startsymbol`, memoising with the table
    `parsetablefactory` makes; left recursion is refused when it is built."""

    def __init__(self, rules, startsymbol, parsetablefactory=LazyParseTable,
                 check_for_left_recursion=True):
        self.rules = rules
        self.startsymbol = startsymbol
        self.parsetablefactory = parsetablefactory
        # a later rule for the same nonterminal replaces an earlier one
        by_name = {}
        for r in rules:
            by_name[r.nonterminal] = r
        self.nonterminal_to_rule = by_name
        if check_for_left_recursion:
            assert not self.has_left_recursion()

    def is_nonterminal(self, symbol):
        return symbol in self.nonterminal_to_rule

    def get_rule(self, symbol):
        return self.nonterminal_to_rule[symbol]

    def parse(self, tokeniterator, lazy=False):
        if not _unknown.known_list(tokeniterator):
            return tokeniterator
        tokens = list(tokeniterator)
        node, after, error = self.parsetablefactory(tokens, self).match_symbol(
            0, self.startsymbol)
        if node is not None:
            return node
        raise ParseError(tokens[error.pos].source_pos, error)

    def has_left_recursion(self):
        """Whether a nonterminal can start with itself (import time): a search from each
        nonterminal through the nonterminals its expansions start with."""
        for name in self.nonterminal_to_rule:
            seen = {}
            todo = [name]
            while todo:
                for expansion in self.nonterminal_to_rule[todo.pop()].expansions:
                    if not expansion or not self.is_nonterminal(expansion[0]):
                        continue
                    head = expansion[0]
                    if head == name:
                        return True
                    if head not in seen:
                        seen[head] = True
                        todo.append(head)
        return False

    def __repr__(self):
        return "%s(%r, %r)" % (self.__class__.__name__, self.rules, self.startsymbol)


class ParserCompiler(object):
    """`ParserCompiler(parser).compile()`: a subclass of the parser's class whose `parse`
    runs generated matcher methods, one per symbol reachable from the start symbol, each
    memoising its results by position. The methods are Python source compiled here at
    import time, as rpython 0.2.1 does, and behave as that version's do: a matched
    nonterminal's node has no children, a matched terminal's node carries the token's name
    as its text, and an empty expansion names a global `symbol` that does not exist (a
    NameError when it runs, a flow error when translated)."""

    def __init__(self, parser):
        self.parser = parser
        self.numbers = {}
        self.methods = []
        self.pending = []

    def number(self, symbol):
        if symbol not in self.numbers:
            self.numbers[symbol] = len(self.numbers)
        return self.numbers[symbol]

    def matcher_name(self, symbol):
        if self.parser.is_nonterminal(symbol):
            kind = "nonterminal"
        else:
            kind = "terminal"
        return "match_%s%d" % (kind, self.number(symbol))

    def memo_name(self, symbol):
        if self.parser.is_nonterminal(symbol):
            kind = "nonterminals"
        else:
            kind = "terminals"
        return "self.matched_%s%d" % (kind, self.number(symbol))

    def want(self, symbol):
        if symbol not in self.numbers:
            self.number(symbol)
            self.pending.append(symbol)
        return self.matcher_name(symbol)

    def emit_terminal(self, symbol):
        memo = self.memo_name(symbol)
        self.methods.extend([
            "    def %s(self, i):" % self.matcher_name(symbol),
            "        if i in %s:" % memo,
            "            return %s[i]" % memo,
            "        try:",
            "            token = self.input[i]",
            "            if self.terminal_equality(%r, token):" % symbol,
            "                found = (Symbol(%r, token.name, token), i + 1)" % symbol,
            "                %s[i] = found" % memo,
            "                return found",
            "        except IndexError:",
            "            pass",
            "        return None, i",
        ])

    def emit_nonterminal(self, symbol):
        memo = self.memo_name(symbol)
        lines = [
            "    def %s(self, i):" % self.matcher_name(symbol),
            "        if i in %s:" % memo,
            "            return %s[i]" % memo,
            "        failed_at = 0",
            "        alternative = 0",
            "        while 1:",
        ]
        expansions = self.parser.get_rule(symbol).expansions
        for k in range(len(expansions)):
            expansion = expansions[k]
            lines.append("            if alternative == %d:" % k)
            if not expansion:
                # rpython 0.2.1 names the rule here by a global that does not exist.
                lines.append("                found = (Nonterminal(symbol, []), i)")
                lines.append("                %s[i] = found" % memo)
                lines.append("                return found")
                continue
            lines.append("                position = i")
            lines.append("                children = []")
            for subsymbol in expansion:
                lines.append("                node, after = self.%s(position)"
                             % self.want(subsymbol))
                lines.append("                if node is None:")
                lines.append("                    failed_at = after")
                lines.append("                    alternative = %d" % (k + 1))
                lines.append("                    continue")
                lines.append("                position = after")
            lines.append("                found = (Nonterminal(%r, children), position)"
                         % symbol)
            lines.append("                %s[i] = found" % memo)
            lines.append("                return found")
        lines.append("            if alternative == %d:" % len(expansions))
        lines.append("                found = None, failed_at")
        lines.append("                %s[i] = found" % memo)
        lines.append("                return found")
        self.methods.extend(lines)

    def compile(self):
        start = self.parser.startsymbol
        self.want(start)
        while self.pending:
            symbol = self.pending.pop(0)
            if self.parser.is_nonterminal(symbol):
                self.emit_nonterminal(symbol)
            else:
                self.emit_terminal(symbol)
        init = [
            "    def __init__(self):",
            "        self.rules = []",
            "        self.nonterminal_to_rule = {}",
            "        self.startsymbol = ''",
            "        self.parsetablefactory = None",
        ]
        for symbol in self.numbers:
            init.append("        %s = {}" % self.memo_name(symbol))
        parse = [
            "    def parse(self, tokenlist, lazy=True):",
            "        self.input = tokenlist",
            "        result = self.%s(0)" % self.matcher_name(start),
            "        if result[0] is None:",
            "            raise ParseError(None, self.input[result[1]])",
            "        return result[0]",
        ]
        source = "\n".join(["class CompileableParser(baseclass):"] + self.methods +
                           init + parse) + "\n"
        namespace = {"baseclass": self.parser.__class__, "Nonterminal": Nonterminal,
                     "Symbol": Symbol, "ParseError": ParseError}
        exec compile(source, "<compiled parser>", "exec") in namespace
        cls = namespace["CompileableParser"]
        factory = self.parser.parsetablefactory
        cls.terminal_equality = factory.terminal_equality.im_func
        return cls
