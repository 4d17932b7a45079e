"""rpy-lsp's model of `rpython.rlib.rsre.rsre_char`: the constants of `sre` bytecode
(`MAXREPEAT` on a 64-bit machine, the info and flag bits) and the character tests the
matcher of `rsre_core` uses on it (categories, character sets).

Characters are code units (ints). The `UNICODE` categories are those of ASCII: rpy-lsp
has no Unicode database, so a unit past 127 is neither a digit, a space nor a word
character for them (the reference asks `unicodedb`)."""

MAXREPEAT = 4294967295
MAXGROUPS = 2147483647
# the bytes of a code word of the compiled patterns (`sre_compile` packs character
# sets by it)
CODESIZE = 4

SRE_INFO_PREFIX = 1
SRE_INFO_LITERAL = 2
SRE_INFO_CHARSET = 4
SRE_FLAG_LOCALE = 4
SRE_FLAG_UNICODE = 32


def getlower(char_ord, flags):
    # the C locale's and ASCII's lower case are the same
    if 65 <= char_ord <= 90:
        return char_ord + 32
    return char_ord


def getupper(char_ord, flags):
    if 97 <= char_ord <= 122:
        return char_ord - 32
    return char_ord


def is_digit(code):
    return 48 <= code <= 57


def is_space(code):
    return code == 32 or 9 <= code <= 13


def is_word(code):
    return (48 <= code <= 57 or 65 <= code <= 90 or 97 <= code <= 122
            or code == 95)


def is_linebreak(code):
    return code == 10


def is_uni_space(code):
    return code == 32 or 9 <= code <= 13 or 28 <= code <= 31


def is_uni_linebreak(code):
    return 10 <= code <= 13 or 28 <= code <= 30


def category_dispatch(category_code, char_code):
    """Whether `char_code` is in the category `category_code` (`sre`'s CHCODES order:
    pairs of a test and its negation, plain, locale, then unicode)."""
    kind = category_code >> 1
    if kind == 0 or kind == 5:
        result = is_digit(char_code)
    elif kind == 1:
        result = is_space(char_code)
    elif kind == 6:
        result = is_uni_space(char_code)
    elif kind == 2 or kind == 4 or kind == 7:
        result = is_word(char_code)
    elif kind == 3:
        result = is_linebreak(char_code)
    elif kind == 8:
        result = is_uni_linebreak(char_code)
    else:
        return False
    if category_code & 1:
        return not result
    return result


def _charset_bit(pattern, index, char_code):
    # <CHARSET> <bitmap>: 256 bits, CODESIZE * 8 to a word
    if char_code >= 256:
        return False
    return (pattern[index + (char_code >> 5)] >> (char_code & 31)) & 1 != 0


def _bigcharset_bit(pattern, index, char_code):
    # <BIGCHARSET> <count> <256 block indices, 4 to a word> <count blocks of 256 bits>
    count = pattern[index]
    index += 1
    if char_code >= 65536:
        return False
    hi = char_code >> 8
    word = pattern[index + (hi >> 2)]
    block = (word >> ((hi & 3) * 8)) & 255
    if block >= count:
        return False
    return _charset_bit(pattern, index + 64 + block * 8, char_code & 255)


def set_length(pattern, ppos):
    """The number of words of the set item at `ppos` (its operator included)."""
    op = pattern[ppos]
    if op == 19 or op == 9:         # LITERAL, CATEGORY
        return 2
    if op == 27 or op == 32:        # RANGE, RANGE_IGNORE
        return 3
    if op == 10:                    # CHARSET
        return 9
    if op == 11:                    # BIGCHARSET
        return 2 + 64 + pattern[ppos + 1] * 8
    if op == 26:                    # NEGATE
        return 1
    return -1


def check_charset(pattern, ppos, char_code, flags):
    """Whether `char_code` is in the set that starts at `pattern[ppos]` and ends with
    FAILURE."""
    negated = False
    result = False
    while True:
        op = pattern[ppos]
        if op == 0:                 # FAILURE: the set's end
            break
        if op == 19:
            if pattern[ppos + 1] == char_code:
                result = True
        elif op == 9:
            if category_dispatch(pattern[ppos + 1], char_code):
                result = True
        elif op == 27:
            if pattern[ppos + 1] <= char_code <= pattern[ppos + 2]:
                result = True
        elif op == 32:
            low = pattern[ppos + 1]
            high = pattern[ppos + 2]
            if low <= char_code <= high or low <= getupper(char_code, flags) <= high:
                result = True
        elif op == 10:
            if _charset_bit(pattern, ppos + 1, char_code):
                result = True
        elif op == 11:
            if _bigcharset_bit(pattern, ppos + 1, char_code):
                result = True
        elif op == 26:
            negated = not negated
        else:
            return False
        ppos += set_length(pattern, ppos)
    if negated:
        return not result
    return result
