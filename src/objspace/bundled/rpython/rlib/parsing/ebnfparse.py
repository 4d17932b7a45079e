"""`parse_ebnf(grammar)` -> (regexs, rules, ToAST) and `make_parse_function`.

The grammar text has token definitions `NAME: "regex";` and productions
`name: expansion | expansion;` whose items are names, quoted literals (tokens of their
own, named `__<n>_<text>`), groups `( )` and `*`, `+`, `?`, with tree edits: `[x]` drops
x, `<x>` replaces the node by x, `>x<` puts x's children in its place. Repetitions and
options become helper rules (`_star_symbol<n>`, `_plus_symbol<n>`, `_maybe_symbol<n>`,
`__<rule>_rest_<k>_<n>`) whose nodes the transformer splices away.

The grammar is read at import time by a small recursive-descent reader; `ToAST` is a
class whose `transform` interprets the rule table built here (instead of generated
source), so the run-time part is plain RPython."""

from rpython.rlib.parsing.parsing import PackratParser, Rule, ParseError
from rpython.rlib.parsing.parsing import ErrorInformation
from rpython.rlib.parsing.tree import Nonterminal, Symbol, RPythonVisitor
from rpython.rlib.parsing.regexparse import parse_regex, unescape
from rpython.rlib.parsing.regex import StringExpression, make_token_automaton
from rpython.rlib.parsing.regex import match_longest
from rpython.rlib.parsing.lexer import Lexer, SourcePos
from rpython.rlib.parsing.deterministic import LexerError
from rpython.rlib.parsing import _unknown

_PUNCTUATION = ":;|*+?[]><()"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"

# A quoted regex or literal: `"` ... `"`, where a quote inside follows a backslash.
_QUOTE = make_token_automaton(
    [parse_regex(r'"[^\"]*(\\\"?[^\"]+)*(\\\")?"')], ["QUOTE"])


def _symbol_name_length(text, i):
    # _*[A-Z]([A-Z]|_)*
    j = i
    while j < len(text) and text[j] == "_":
        j += 1
    if j >= len(text) or text[j] not in _UPPER:
        return 0
    j += 1
    while j < len(text) and (text[j] in _UPPER or text[j] == "_"):
        j += 1
    return j - i


def _nonterminal_name_length(text, i):
    # ([a-z]|_)[a-z0-9_]*
    if i >= len(text) or not (text[i] in _LOWER or text[i] == "_"):
        return 0
    j = i + 1
    while j < len(text) and (text[j] in _LOWER or text[j] in _DIGITS or text[j] == "_"):
        j += 1
    return j - i


class _GrammarToken(object):
    def __init__(self, kind, text, pos):
        self.kind = kind
        self.text = text
        self.pos = pos


def _tokenize_grammar(text):
    tokens = []
    i = 0
    line = 0
    column = 0
    while i < len(text):
        c = text[i]
        pos = SourcePos(i, line, column)
        length = 0
        kind = None
        if c in " \t\n":
            length = 1
        elif c == "#":
            end = text.find("\n", i)
            if end >= 0:
                length = end + 1 - i
        elif c == '"':
            match = match_longest(_QUOTE, text, i)
            if match.stop >= 0:
                length = match.stop - i
                kind = "QUOTE"
        elif text[i:i + 3] == "'\"'":
            length = 3
            kind = "QUOTE"
        elif c in _PUNCTUATION:
            length = 1
            kind = c
        else:
            upper = _symbol_name_length(text, i)
            lower = _nonterminal_name_length(text, i)
            if upper >= lower and upper > 0:
                length = upper
                kind = "SYMBOLNAME"
            elif lower > 0:
                length = lower
                kind = "NONTERMINALNAME"
        if length == 0:
            raise LexerError(text, 0, pos)
        source = text[i:i + length]
        if kind is not None:
            tokens.append(_GrammarToken(kind, source, pos))
        newlines = source.count("\n")
        line += newlines
        if newlines:
            column = source.rfind("\n")
        else:
            column += length
        i += length
    tokens.append(_GrammarToken("EOF", "EOF", SourcePos(i, line, column)))
    return tokens


class _Backtrack(Exception):
    pass


class _GrammarReader(object):
    """Reads the grammar's tokens into tuples: ("regex", name, quote),
    ("production", name, expansions or None); an expansion is a list of items:
    ("primary", token), ("edit", char, expansion) for [ ], > < and < >,
    ("repeat", item, char) and ("group", expansion)."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0
        self.furthest = 0
        self.expected = []

    def peek(self):
        return self.tokens[self.pos].kind

    def expect(self, kind):
        if self.peek() != kind:
            if self.pos > self.furthest:
                self.furthest = self.pos
                self.expected = []
            if self.pos == self.furthest and kind not in self.expected:
                self.expected.append(kind)
            raise _Backtrack()
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def error(self):
        token = self.tokens[self.furthest]
        return ParseError(token.pos, ErrorInformation(self.furthest, self.expected))

    def read_file(self):
        elements = []
        try:
            while True:
                kind = self.peek()
                if kind == "SYMBOLNAME":
                    name = self.expect("SYMBOLNAME").text
                    self.expect(":")
                    quote = self.expect("QUOTE").text
                    self.expect(";")
                    elements.append(("regex", name, quote))
                elif kind == "NONTERMINALNAME":
                    name = self.expect("NONTERMINALNAME").text
                    self.expect(":")
                    body = None
                    if self.peek() != ";":
                        body = self.read_body()
                    self.expect(";")
                    elements.append(("production", name, body))
                elif elements:
                    self.expect("EOF")
                    return elements
                else:
                    self.expect("NONTERMINALNAME")
        except _Backtrack:
            raise self.error()

    def read_body(self):
        expansions = [self.read_expansion()]
        while self.peek() == "|":
            self.pos += 1
            expansions.append(self.read_expansion())
        return expansions

    def read_expansion(self):
        items = [self.read_decorated()]
        while True:
            saved = self.pos
            try:
                items.append(self.read_decorated())
            except _Backtrack:
                self.pos = saved
                return items

    def read_decorated(self):
        item = self.read_enclosed()
        kind = self.peek()
        if kind in ("*", "+", "?"):
            self.pos += 1
            return ("repeat", item, kind)
        return item

    def read_enclosed(self):
        kind = self.peek()
        saved = self.pos
        try:
            if kind == "[" or kind == ">":
                self.pos += 1
                inner = self.read_expansion()
                self.expect("]" if kind == "[" else "<")
                return ("edit", kind, inner)
            if kind == "<":
                self.pos += 1
                inner = [self.read_primary()]
                self.expect(">")
                return ("edit", "<", inner)
            if kind == "(":
                self.pos += 1
                inner = self.read_expansion()
                self.expect(")")
                return ("group", inner)
        except _Backtrack:
            self.pos = saved
        return self.read_primary()

    def read_primary(self):
        kind = self.peek()
        if kind in ("NONTERMINALNAME", "SYMBOLNAME", "QUOTE"):
            self.pos += 1
            return ("primary", self.tokens[self.pos - 1])
        self.expect("NONTERMINALNAME")


class _RuleBuilder(object):
    """Turns the read grammar into token expressions and rules, each expansion with its
    edit string (one character per symbol: " " keep, "[" drop, "<" replace, ">" splice)."""

    def __init__(self):
        self.regexs = []
        self.names = []
        self.rules = []
        self.changes = []
        self.maybe_rules = {}
        self.num_plus_symbols = 0
        self.first_rule = None
        self.literals = {}

    def add_element(self, element):
        if element[0] == "regex":
            text = element[2][1:-1].replace('\\"', '"')
            self.regexs.append(parse_regex(text))
            self.names.append(element[1])
            return
        name = element[1]
        body = element[2]
        if body is None:
            self.changes.append([])
            self.rules.append(Rule(name, [[]]))
            return
        expansions = []
        changes = []
        for expansion in body:
            pairs = self.expansion(expansion)
            expansions.append([symbol for symbol, change in pairs])
            changes.append("".join([change for symbol, change in pairs]))
        if self.first_rule is None:
            self.first_rule = name
        self.changes.append(changes)
        self.rules.append(Rule(name, expansions))

    def expansion(self, items):
        pairs = []
        for item in items:
            pairs.extend(self.item(item))
        return pairs

    def item(self, item):
        kind = item[0]
        if kind == "primary":
            token = item[1]
            if token.kind == "QUOTE":
                return [(self.literal_name(unescape(token.text[1:-1])), " ")]
            return [(token.text, " ")]
        if kind == "group":
            return self.expansion(item[1])
        if kind == "edit":
            edit = item[1]
            result = []
            for symbol, change in self.expansion(item[2]):
                assert change == " " or change == edit
                result.append((symbol, edit))
            return result
        # ("repeat", item, op)
        pairs = self.item(item[1])
        symbols = [symbol for symbol, change in pairs]
        changes = "".join([change for symbol, change in pairs])
        op = item[2]
        if op == "*":
            name = "_star_symbol%s" % (len(self.maybe_rules),)
            rule = Rule(name, [symbols + [name]])
            self.rules.append(rule)
            self.changes.append([changes + ">", changes])
            self.maybe_rules[name] = rule
        elif op == "+":
            name = "_plus_symbol%s" % (self.num_plus_symbols,)
            self.num_plus_symbols += 1
            self.rules.append(Rule(name, [symbols + [name], symbols]))
            self.changes.append([changes + ">", changes])
        else:
            name = "_maybe_symbol%s" % (len(self.maybe_rules),)
            rule = Rule(name, [symbols])
            self.rules.append(rule)
            self.changes.append([changes])
            self.maybe_rules[name] = rule
        return [(name, ">")]

    def literal_name(self, text):
        if text in self.literals:
            return self.literals[text]
        name = "__%s_%s" % (len(self.literals), text)
        self.literals[text] = name
        self.regexs.insert(0, StringExpression(text))
        self.names.insert(0, name)
        return name

    def put_first_rule_first(self):
        if self.rules[0].nonterminal == self.first_rule:
            return
        for index in range(len(self.rules)):
            if self.rules[index].nonterminal == self.first_rule:
                break
        self.rules[0], self.rules[index] = self.rules[index], self.rules[0]
        self.changes[0], self.changes[index] = self.changes[index], self.changes[0]

    def expand_optional_symbols(self):
        """Each expansion with symbols that may match nothing (`*`, `?`) becomes the
        expansions with and without the first of them; the part after it moves to a
        rest rule that does the same for the next one."""
        rules = []
        changes = []
        rest_rules = []
        rest_changes = []
        for rule, rule_changes in zip(self.rules, self.changes):
            if rule.expansions == [[]]:
                rules.append(rule)
                changes.append([])
                continue
            new_expansions = []
            new_changes = []
            for k in range(len(rule.expansions)):
                expansion = rule.expansions[k]
                change = rule_changes[k]
                optional = [i for i in range(len(expansion))
                            if expansion[i] in self.maybe_rules]
                if not optional:
                    new_expansions.append(expansion)
                    new_changes.append(change)
                    continue
                if len(optional) == len(expansion):
                    raise ValueError("Rule %r's expansion needs at least one symbol "
                                     "with >0 repetitions" % rule.nonterminal)
                start = 0
                owner = rule.nonterminal
                for n in range(len(optional)):
                    stop = optional[n] + 1
                    if n < len(optional) - 1:
                        following = "__%s_rest_%s_%s" % (rule.nonterminal, k, n)
                        tail = [following]
                        tail_change = ">"
                    else:
                        following = None
                        tail = expansion[stop:]
                        tail_change = change[stop:]
                    alternatives = [expansion[start:stop] + tail,
                                    expansion[start:stop - 1] + tail]
                    alternative_changes = [change[start:stop] + tail_change,
                                           change[start:stop - 1] + tail_change]
                    if n == 0:
                        new_expansions.extend(alternatives)
                        new_changes.extend(alternative_changes)
                    else:
                        rest_rules.append(Rule(owner, alternatives))
                        rest_changes.append(alternative_changes)
                    owner = following
                    start = stop
            rules.append(Rule(rule.nonterminal, new_expansions))
            changes.append(new_changes)
        return rules + rest_rules, changes + rest_changes


class _Alternative(object):
    def __init__(self, symbols, edits):
        self.symbols = symbols
        self.edits = edits
        self.replace = edits.find("<")


class _TransformTable(object):
    """Per nonterminal, the alternatives with their edit strings; a nonterminal with
    none (an empty production) keeps its node."""

    def __init__(self, rules, changes):
        self.start = rules[0].nonterminal
        self.alternatives = {}
        for rule, rule_changes in zip(rules, changes):
            alternatives = []
            for k in range(len(rule_changes)):
                alternatives.append(_Alternative(rule.expansions[k], rule_changes[k]))
            self.alternatives[rule.nonterminal] = alternatives


def _transform(table, node):
    """The nodes that node becomes (a list, as a spliced node becomes its children)."""
    if not isinstance(node, Nonterminal) or node.symbol not in table.alternatives:
        return [node]
    alternatives = table.alternatives[node.symbol]
    if not alternatives:
        return [node]
    children = node.children
    chosen = None
    for alternative in alternatives:
        if len(alternative.symbols) != len(children):
            continue
        same = True
        for i in range(len(children)):
            if children[i].symbol != alternative.symbols[i]:
                same = False
                break
        if same:
            chosen = alternative
            break
    assert chosen is not None
    if chosen.replace >= 0:
        return _transform(table, children[chosen.replace])
    result = []
    for i in range(len(children)):
        edit = chosen.edits[i]
        if edit == "[":
            continue
        nodes = _transform(table, children[i])
        if edit == ">":
            assert len(nodes) == 1
            spliced = nodes[0]
            assert isinstance(spliced, Nonterminal)
            result.extend(spliced.children)
        else:
            result.extend(nodes)
    return [Nonterminal(node.symbol, result)]


class _TransformerBase(object):
    _table = None

    def transform(self, tree):
        if not _unknown.known_object(tree):
            return tree
        assert isinstance(tree, Nonterminal)
        assert tree.symbol == self._table.start
        result = _transform(self._table, tree)
        assert len(result) == 1
        return result[0]


def _make_transformer(rules, changes):
    class ToAST(_TransformerBase):
        _table = _TransformTable(rules, changes)
    ToAST.changes = changes
    return ToAST


def parse_ebnf(s):
    if not _unknown.known_text(s):
        result = _unknown.unknown("rpython.rlib.parsing.ebnfparse.parse_ebnf() of a grammar rpy-lsp does not read")
        return result, result, result
    elements = _GrammarReader(_tokenize_grammar(s)).read_file()
    builder = _RuleBuilder()
    for element in elements:
        builder.add_element(element)
    builder.put_first_rule_first()
    rules, changes = builder.expand_optional_symbols()
    regexs = [(builder.names[i], builder.regexs[i]) for i in range(len(builder.names))]
    return regexs, rules, _make_transformer(rules, changes)


def check_for_missing_names(names, regexs, rules):
    known = {"EOF": True}
    for name in names:
        known[name] = True
    for rule in rules:
        known[rule.nonterminal] = True
    for rule in rules:
        for expansion in rule.expansions:
            for symbol in expansion:
                if symbol not in known:
                    raise ValueError("symbol '%s' not known" % (symbol,))


def make_parse_function(regexs, rules, eof=False):
    # An unknown grammar (already reported) makes an unknown parse function.
    if not _unknown.known_list(regexs):
        return regexs
    if not _unknown.known_list(rules):
        return rules
    names = [name for name, regex in regexs]
    expressions = [regex for name, regex in regexs]
    ignore = []
    if "IGNORE" in names:
        ignore = ["IGNORE"]
    check_for_missing_names(names, expressions, rules)
    lexer = Lexer(expressions, names, ignore=ignore)
    parser = PackratParser(rules, rules[0].nonterminal)

    def parse(s):
        tokens = lexer.tokenize(s, eof=eof)
        return parser.parse(tokens)
    return parse
