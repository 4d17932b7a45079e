"""`parse_regex`: the lexer's regular-expression syntax (`|`, `*`, `+`, `?`, `{n}`,
`{n,}`, `{n,m}`, groups, `[...]` and `[^...]` sets, `.`, `\\d \\s \\w` and their negations,
escapes `\\n \\xhh \\ooo \\cX`), read by recursive descent with the ordered choices of
the reference's grammar (import time only)."""

from rpython.rlib.parsing.regex import StringExpression, RangeExpression
from rpython.rlib.parsing.regex import CharSetExpression, OrExpression

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r",
            "t": "\t", "v": "\v"}

# Characters that stand for themselves outside an escape.
_SPECIAL = "*+()[]{|.-?^\\"
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"


def _all_chars():
    return [chr(code) for code in range(256)]


_CLASSES = {
    "d": "0123456789",
    "s": "\t\n\f\r ",
    "w": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
}


def _class_chars(letter):
    if letter in _CLASSES:
        return _CLASSES[letter]
    inside = _CLASSES[letter.lower()]
    return "".join([c for c in _all_chars() if c not in inside])


def _escape_length(s, i):
    """Length of the escape sequence starting with the backslash at s[i] (0: none)."""
    if i + 1 >= len(s) or s[i] != "\\":
        return 0
    c = s[i + 1]
    if c == "x" and i + 3 < len(s) and s[i + 2] in _HEX and s[i + 3] in _HEX:
        return 4
    if c in "0123":
        if i + 3 < len(s) and s[i + 2] in _OCTAL and s[i + 3] in _OCTAL:
            return 4
    if c in _OCTAL and i + 2 < len(s) and s[i + 2] in _OCTAL:
        return 3
    if c == "c" and i + 2 < len(s):
        return 3
    if c in "dswDSW":
        return 0
    return 2


def _unescape_one(seq):
    # seq: one escape sequence as measured by _escape_length, or one plain character.
    if len(seq) == 1 or seq[0] != "\\":
        return seq
    c = seq[1]
    if c == "x" and len(seq) == 4:
        return chr(int(seq[2:], 16))
    if c in _OCTAL:
        return chr(int(seq[1:], 8))
    if c == "c" and len(seq) == 3:
        return chr(ord(seq[2].upper()) ^ 0x40)
    if c in _ESCAPES:
        return _ESCAPES[c]
    return c


def unescape(s):
    """The characters that s (with backslash escapes) stands for."""
    result = []
    i = 0
    while i < len(s):
        length = _escape_length(s, i)
        if length == 0:
            if s[i] == "\\" and i + 1 < len(s):
                length = 2
            else:
                length = 1
        result.append(_unescape_one(s[i:i + length]))
        i += length
    return "".join(result)


class _Fail(Exception):
    pass


class _RegexReader(object):
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def peek(self, k=0):
        if self.pos + k < len(self.text):
            return self.text[self.pos + k]
        return ""

    def eat(self, c):
        if self.peek() == c:
            self.pos += 1
            return True
        return False

    def regex(self):
        left = self.concatenation()
        if self.peek() == "|":
            self.pos += 1
            return OrExpression(left, self.regex())
        return left

    def concatenation(self):
        result = StringExpression("")
        while True:
            saved = self.pos
            try:
                item = self.repetition()
            except _Fail:
                self.pos = saved
                return result
            result = result + item

    def repetition(self):
        if self.peek() == "{":
            saved = self.pos
            try:
                return self.repeated(self.primary())
            except _Fail:
                self.pos = saved + 1
                return StringExpression("{")
        return self.repeated(self.primary())

    def repeated(self, item):
        c = self.peek()
        if c == "*":
            self.pos += 1
            return item.kleene()
        if c == "+":
            self.pos += 1
            return item + item.kleene()
        if c == "?":
            self.pos += 1
            return StringExpression("") | item
        if c == "{":
            saved = self.pos
            self.pos += 1
            low = self.number()
            if low >= 0:
                if self.eat(","):
                    if self.eat("}"):
                        return item * low + item.kleene()
                    high = self.number()
                    if high >= 0 and self.eat("}"):
                        return self.bounded(item, low, high)
                elif self.eat("}"):
                    return self.bounded(item, low, low)
            self.pos = saved
        return item

    def bounded(self, item, low, high):
        optional = StringExpression("")
        for count in range(high - low + 1):
            optional = optional | item * count
        return item * low + optional

    def number(self):
        start = self.pos
        if self.peek() == "0":
            self.pos += 1
        else:
            while self.peek() != "" and self.peek() in _DIGITS:
                self.pos += 1
        if self.pos == start:
            return -1
        return int(self.text[start:self.pos])

    def primary(self):
        c = self.peek()
        if c == "(":
            saved = self.pos
            self.pos += 1
            try:
                inner = self.regex()
                if self.eat(")"):
                    return inner
            except _Fail:
                pass
            self.pos = saved
        if c == "[":
            saved = self.pos
            try:
                return CharSetExpression(self.charset())
            except _Fail:
                self.pos = saved
        chars = self.charclass()
        if chars is not None:
            return CharSetExpression(chars)
        char = self.char()
        if char is not None:
            return StringExpression(char)
        if c == ".":
            self.pos += 1
            return RangeExpression(chr(0), chr(255))
        if c in ("-", "\\", "]") and c != "":
            self.pos += 1
            return StringExpression(c)
        raise _Fail()

    def charclass(self):
        if self.peek() == "\\" and self.peek(1) != "" and self.peek(1) in "dswDSW":
            self.pos += 2
            return _class_chars(self.text[self.pos - 1])
        return None

    def char(self):
        c = self.peek()
        if c == "":
            return None
        length = _escape_length(self.text, self.pos)
        if length:
            seq = self.text[self.pos:self.pos + length]
            self.pos += length
            return _unescape_one(seq)
        if c in _SPECIAL:
            return None
        self.pos += 1
        return c

    def charset(self):
        self.pos += 1  # "["
        negate = self.eat("^")
        chars = {}
        count = 0
        if self.eat("]"):
            chars["]"] = True
        else:
            self.range_element(chars)
            count = 1
        while True:
            saved = self.pos
            try:
                self.range_element(chars)
            except _Fail:
                self.pos = saved
                break
        if not self.eat("]"):
            raise _Fail()
        if negate:
            return "".join([c for c in _all_chars() if c not in chars])
        return "".join([c for c in _all_chars() if c in chars])

    def range_element(self, chars):
        found = self.charclass()
        if found is not None:
            for c in found:
                chars[c] = True
            return
        saved = self.pos
        first = self.char()
        if first is not None:
            if self.eat("-"):
                last = self.char()
                if last is not None:
                    for code in range(ord(first), ord(last) + 1):
                        chars[chr(code)] = True
                    return
            self.pos = saved
        c = self.peek()
        if c != "" and c in ".*+?-[":
            self.pos += 1
            chars[c] = True
            return
        first = self.char()
        if first is None:
            raise _Fail()
        chars[first] = True


def parse_regex(s):
    reader = _RegexReader(s)
    try:
        result = reader.regex()
    except _Fail:
        result = None
    if result is None or reader.pos != len(s):
        raise ValueError("%s is not a valid regular expression" % (s,))
    return result
