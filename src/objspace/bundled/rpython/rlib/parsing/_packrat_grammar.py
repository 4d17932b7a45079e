"""Reads the grammar in a makepackrat parser's docstring (import time only) into
productions `(name, args, body)` whose bodies are tuples: ("or", [alternatives]),
("commands", [commands]), ("return", code), ("if", command or None, condition),
("choose", name, iterable, commands), ("named", name, command), ("maybe", command),
("repetition", "*" or "+", command), ("negation", command), ("lookahead", command),
("exclusive", command), ("ignore", command), ("call", name, [codes]), ("regex", text),
("quote", text). A sequence of one command is that command, a choice of one
alternative that alternative, and a double negation a lookahead."""

_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_CHARS = _NAME_START + "0123456789"
_PUNCT = ":;|()[]<>*+?!=,"


class GrammarError(Exception):
    def __init__(self, msg):
        Exception.__init__(self, msg)
        self.msg = msg


def _tokenize(text):
    tokens = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c == "`":
            j = i + 1
            while j < n and text[j] != "`":
                if text[j] == "\\":
                    j += 1
                j += 1
            if j >= n:
                raise GrammarError("unterminated regex in the grammar")
            tokens.append(("regex", text[i + 1:j].replace("\\`", "`")))
            i = j + 1
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise GrammarError("unterminated quote in the grammar")
            tokens.append(("quote", text[i + 1:j]))
            i = j + 1
        elif c == "{":
            j = i + 1
            while j < n and text[j] not in "}\n":
                j += 1
            if j >= n or text[j] != "}":
                raise GrammarError("unterminated {code} in the grammar")
            tokens.append(("code", text[i + 1:j]))
            i = j + 1
        elif c in _NAME_START:
            j = i
            while j < n and text[j] in _NAME_CHARS:
                j += 1
            tokens.append(("name", text[i:j]))
            i = j
        elif c in _PUNCT:
            tokens.append(("punct", c))
            i += 1
        else:
            raise GrammarError("unexpected character %r in the grammar" % (c,))
    tokens.append(("eof", ""))
    return tokens


class _Reader(object):
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self, k=0):
        return self.tokens[min(self.pos + k, len(self.tokens) - 1)]

    def is_punct(self, char, k=0):
        return self.peek(k) == ("punct", char)

    def is_name(self, name, k=0):
        return self.peek(k) == ("name", name)

    def take(self, kind):
        token = self.peek()
        if token[0] != kind:
            raise GrammarError("expected %s in the grammar, found %r" % (kind, token[1]))
        self.pos += 1
        return token[1]

    def expect(self, char):
        if not self.is_punct(char):
            raise GrammarError("expected %r in the grammar, found %r" % (char, self.peek()[1]))
        self.pos += 1

    def read_file(self):
        productions = []
        while self.peek()[0] != "eof":
            productions.append(self.read_production())
        if not productions:
            raise GrammarError("the grammar has no production")
        return productions

    def read_production(self):
        name = self.take("name")
        args = []
        if self.is_punct("("):
            self.pos += 1
            args.append(self.take("name"))
            while self.is_punct(","):
                self.pos += 1
                args.append(self.take("name"))
            self.expect(")")
        self.expect(":")
        body = self.read_or()
        self.expect(";")
        return (name, args, body)

    def read_or(self):
        alternatives = [self.read_commands()]
        while self.is_punct("|"):
            self.pos += 1
            alternatives.append(self.read_commands())
        if len(alternatives) == 1:
            return alternatives[0]
        return ("or", alternatives)

    def at_sequence_end(self):
        token = self.peek()
        return token[0] == "eof" or (token[0] == "punct" and token[1] in "|;)]>")

    def read_commands(self):
        commands = [self.read_command()]
        while not self.at_sequence_end():
            commands.append(self.read_command())
        if len(commands) == 1:
            return commands[0]
        return ("commands", commands)

    def read_command(self):
        if self.is_name("return") and self.peek(1)[0] == "code":
            self.pos += 1
            return ("return", self.take("code"))
        if self.is_name("do"):
            self.pos += 1
            command = self.read_command()
            if not self.is_name("if"):
                raise GrammarError("expected 'if' after 'do' in the grammar")
            self.pos += 1
            return ("if", command, self.take("code"))
        if self.is_name("if") and self.peek(1)[0] == "code":
            self.pos += 1
            return ("if", None, self.take("code"))
        if self.peek()[0] == "name" and self.is_punct("=", 1):
            name = self.take("name")
            self.pos += 1
            return ("named", name, self.read_command())
        if (self.is_name("choose") and self.peek(1)[0] == "name" and
                self.is_name("in", 2) and self.peek(3)[0] == "code"):
            self.pos += 1
            name = self.take("name")
            self.pos += 1
            iterable = self.take("code")
            return ("choose", name, iterable, self.read_commands())
        return self.read_negation()

    def read_negation(self):
        if self.is_punct("!"):
            self.pos += 1
            inner = self.read_negation()
            if inner[0] == "negation":
                return ("lookahead", inner[1])
            return ("negation", inner)
        what = self.read_enclosed()
        if self.is_punct("?"):
            self.pos += 1
            return ("maybe", what)
        if self.is_punct("*") or self.is_punct("+"):
            kind = self.peek()[1]
            self.pos += 1
            return ("repetition", kind, what)
        return what

    def read_enclosed(self):
        if self.is_punct("<"):
            self.pos += 1
            what = self.read_primary()
            self.expect(">")
            return ("exclusive", what)
        if self.is_punct("["):
            self.pos += 1
            what = self.read_or()
            self.expect("]")
            return ("ignore", what)
        if self.is_punct("("):
            self.pos += 1
            what = self.read_or()
            self.expect(")")
            return what
        return self.read_primary()

    def read_primary(self):
        kind, text = self.peek()
        if kind == "regex" or kind == "quote":
            self.pos += 1
            return (kind, text)
        name = self.take("name")
        args = []
        if self.is_punct("(") and self.peek(1)[0] == "code":
            self.pos += 1
            args.append(self.take("code"))
            while self.is_punct(","):
                self.pos += 1
                args.append(self.take("code"))
            self.expect(")")
        return ("call", name, args)


def read_grammar(text):
    return _Reader(_tokenize(text)).read_file()
