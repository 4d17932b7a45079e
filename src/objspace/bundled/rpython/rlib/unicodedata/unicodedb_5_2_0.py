"""rpy-lsp's model of `rpython.rlib.unicodedata.unicodedb_5_2_0`: Unicode 5.2.0's
character database for code points (ints), written in RPython over the text tables of
`_unicodedb_5_2_0_data` (generated, see the generator beside it), which import-time code
turns into prebuilt lists and dicts. The named sequences (`lookup_named_sequence`, and
`lookup(name, with_named_sequence=True)` of one) and `casefold_lookup` are not modelled:
a program that calls them is checked but not run."""
from __rpy__ import model_unknown
from rpython.rlib.unicodedata import _unicodedb_5_2_0_data as _data

version = '5.2.0'

# the bits of a record's flags
_SPACE = 1
_ALPHA = 2
_LINEBREAK = 4
_UPPER = 8
_TITLE = 16
_LOWER = 32
_NUMERIC = 64
_DIGIT = 128
_DECIMAL = 256
_MIRRORED = 512
_XID_START = 1024
_XID_CONTINUE = 2048
_PRINTABLE = 4096
_CASE_IGNORABLE = 8192


def _pairs(text):
    return [token.split(':', 1) for token in text.split()]


def _records(text):
    out = []
    for token in text.split():
        category, bidi, width, flags = token.split(',')
        out.append((category, bidi, width, int(flags)))
    return out


def _runs(text):
    starts = []
    values = []
    for first, value in _pairs(text):
        starts.append(int(first, 16))
        values.append(int(value))
    return starts, values


def _code_map(text):
    return dict([(int(a, 16), int(b, 16)) for a, b in _pairs(text)])


def _codes(text):
    return [int(x, 16) for x in text.split('-')]


_RECORDS = _records(_data.RECORDS)
_RECORD_STARTS, _RECORD_INDEX = _runs(_data.RECORD_RUNS)
_COMBINING_STARTS, _COMBINING_CLASS = _runs(_data.COMBINING_RUNS)
_toupper = _code_map(_data.UPPER)
_tolower = _code_map(_data.LOWER)
_totitle = _code_map(_data.TITLE)
_special_casing = {}
for _code, _forms in _pairs(_data.SPECIAL_CASING):
    _lower, _title, _upper = _forms.split('/')
    _special_casing[int(_code, 16)] = (_codes(_lower), _codes(_title), _codes(_upper))
_decimal = dict([(int(a, 16), int(b)) for a, b in _pairs(_data.DECIMAL)])
_digit = dict([(int(a, 16), int(b)) for a, b in _pairs(_data.DIGIT)])
_numeric = dict([(int(a, 16), float(b)) for a, b in _pairs(_data.NUMERIC)])
_raw_decomposition = dict([(int(a, 16), b.replace('_', ' '))
                           for a, b in _pairs(_data.DECOMPOSITION)])


def _parse_decompositions():
    """Each decomposition's code points, and whether it is a compatibility one (tagged
    `<...>`)."""
    parts = {}
    for code, text in _raw_decomposition.items():
        words = text.split()
        compat = words[0].startswith('<')
        if compat:
            words = words[1:]
        parts[code] = ([int(w, 16) for w in words], compat)
    return parts


def _full(parts, code, canonical, memo):
    """The full decomposition of `code`: its parts' decompositions, recursively (a
    canonical one stops at compatibility decompositions)."""
    if code in memo:
        return memo[code]
    if code not in parts or (canonical and parts[code][1]):
        return [code]
    out = []
    for part in parts[code][0]:
        out.extend(_full(parts, part, canonical, memo))
    memo[code] = out
    return out


def _full_decompositions():
    parts = _parse_decompositions()
    canon = {}
    compat = {}
    for code in parts:
        if not parts[code][1]:
            _full(parts, code, True, canon)
        _full(parts, code, False, compat)
    return canon, compat


_canon_decomposition, _compat_decomposition = _full_decompositions()


def _run_value(starts, values, code):
    # the last run starting at or before `code`
    lo = 0
    hi = len(starts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if starts[mid] <= code:
            lo = mid
        else:
            hi = mid
    return values[lo]


def _get_record(code):
    return _RECORDS[_run_value(_RECORD_STARTS, _RECORD_INDEX, code)]


def _flags(code):
    return _get_record(code)[3]


def category(code):
    return _get_record(code)[0]


def bidirectional(code):
    return _get_record(code)[1]


def east_asian_width(code):
    return _get_record(code)[2]


def isspace(code):
    return _flags(code) & _SPACE != 0


def isalpha(code):
    return _flags(code) & _ALPHA != 0


def islinebreak(code):
    return _flags(code) & _LINEBREAK != 0


def isnumeric(code):
    return _flags(code) & _NUMERIC != 0


def isdigit(code):
    return _flags(code) & _DIGIT != 0


def isdecimal(code):
    return _flags(code) & _DECIMAL != 0


def isalnum(code):
    return _flags(code) & (_ALPHA | _NUMERIC) != 0


def isupper(code):
    return _flags(code) & _UPPER != 0


def istitle(code):
    return _flags(code) & _TITLE != 0


def islower(code):
    return _flags(code) & _LOWER != 0


def iscased(code):
    return _flags(code) & (_UPPER | _TITLE | _LOWER) != 0


def isxidstart(code):
    return _flags(code) & _XID_START != 0


def isxidcontinue(code):
    return _flags(code) & _XID_CONTINUE != 0


def isprintable(code):
    return _flags(code) & _PRINTABLE != 0


def mirrored(code):
    return _flags(code) & _MIRRORED != 0


def iscaseignorable(code):
    return _flags(code) & _CASE_IGNORABLE != 0


def decimal(code):
    """KeyError when the character has no decimal value."""
    return _decimal[code]


def digit(code):
    return _digit[code]


def numeric(code):
    return _numeric[code]


def toupper(code):
    return _toupper.get(code, code)


def tolower(code):
    return _tolower.get(code, code)


def totitle(code):
    return _totitle.get(code, code)


def toupper_full(code):
    if code in _special_casing:
        return _special_casing[code][2]
    return [toupper(code)]


def tolower_full(code):
    if code in _special_casing:
        return _special_casing[code][0]
    return [tolower(code)]


def totitle_full(code):
    if code in _special_casing:
        return _special_casing[code][1]
    return [totitle(code)]


def decomposition(code):
    """The decomposition as UnicodeData.txt spells it ('' when there is none)."""
    return _raw_decomposition.get(code, '')


def canon_decomposition(code):
    return _canon_decomposition.get(code, [])


def compat_decomposition(code):
    return _compat_decomposition.get(code, [])


def combining(code):
    return _run_value(_COMBINING_STARTS, _COMBINING_CLASS, code)


# ____________________________________________________________
# names

_DIGITS36 = '0123456789abcdefghijklmnopqrstuvwxyz'


def _names():
    by_code = {}
    code = -1
    previous = ''
    for gap, rest in _pairs(_data.NAMES):
        if gap:
            code += int(gap, 16)
        else:
            code += 1
        previous = previous[:_DIGITS36.index(rest[0])] + rest[1:].replace('_', ' ')
        by_code[code] = previous
    return by_code


_names_by_code = _names()
_codes_by_name = dict([(n, c) for c, n in _names_by_code.items()])
# Unicode 5.2's name aliases (NameAliases.txt, corrections of names): the database looks
# them up as code points of plane 15's private use area, from 0xF0000 on in this order
_name_aliases = [
    (0x01A2, "LATIN CAPITAL LETTER GHA"),
    (0x01A3, "LATIN SMALL LETTER GHA"),
    (0x0CDE, "KANNADA LETTER LLLA"),
    (0x0E9D, "LAO LETTER FO FON"),
    (0x0E9F, "LAO LETTER FO FAY"),
    (0x0EA3, "LAO LETTER RO"),
    (0x0EA5, "LAO LETTER LO"),
    (0x0FD0, "TIBETAN MARK BKA- SHOG GI MGO RGYAN"),
    (0xA015, "YI SYLLABLE ITERATION MARK"),
    (0xFE18, "PRESENTATION FORM FOR VERTICAL RIGHT WHITE LENTICULAR BRACKET"),
    (0x1D0C5, "BYZANTINE MUSICAL SYMBOL FTHORA SKLIRON CHROMA VASIS"),
]
_ALIAS_BASE = 0xF0000
for _i in range(len(_name_aliases)):
    _codes_by_name[_name_aliases[_i][1]] = _ALIAS_BASE + _i
_alias_targets = [_target for _target, _alias in _name_aliases]

_CJK_PREFIX = "CJK UNIFIED IDEOGRAPH-"
_HANGUL_PREFIX = "HANGUL SYLLABLE "
# the Hangul jamo's short names: leading consonants, vowels, trailing consonants
_HANGUL_L = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '', 'J', 'JJ',
             'C', 'K', 'T', 'P', 'H']
_HANGUL_V = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA', 'WAE', 'OE', 'YO',
             'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I']
_HANGUL_T = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB', 'LS', 'LT',
             'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C', 'K', 'T', 'P', 'H']


def _is_cjk_unified(code):
    # the CJK unified ideographs of Unicode 5.2 (extensions A, B and C included)
    return (0x3400 <= code <= 0x4DB5 or 0x4E00 <= code <= 0x9FCB or
            0x20000 <= code <= 0x2A6D6 or 0x2A700 <= code <= 0x2B734)


def _longest_jamo(table, text, start):
    """The index of the longest of `table`'s names that `text` has at `start`."""
    found = -1
    for i in range(len(table)):
        jamo = table[i]
        if text[start:start + len(jamo)] == jamo and (
                found < 0 or len(jamo) > len(table[found])):
            found = i
    if found < 0:
        raise KeyError
    return found


def _lookup_hangul(syllable):
    l = _longest_jamo(_HANGUL_L, syllable, 0)
    start = len(_HANGUL_L[l])
    v = _longest_jamo(_HANGUL_V, syllable, start)
    start += len(_HANGUL_V[v])
    t = _longest_jamo(_HANGUL_T, syllable, start)
    start += len(_HANGUL_T[t])
    if start != len(syllable):
        raise KeyError
    return 0xAC00 + (l * 21 + v) * 28 + t


def _lookup_cjk(digits):
    if len(digits) != 4 and len(digits) != 5:
        raise KeyError
    for ch in digits:
        if not ('0' <= ch <= '9' or 'A' <= ch <= 'F'):
            raise KeyError
    code = int(digits, 16)
    if _is_cjk_unified(code):
        return code
    raise KeyError


def lookup(name, with_named_sequence=False):
    """The code point of a character's name (exactly as spelled, in capitals): KeyError
    for an unknown name. An alias's code is its private use stand-in."""
    if name.startswith(_CJK_PREFIX):
        return _lookup_cjk(name[len(_CJK_PREFIX):])
    if name.startswith(_HANGUL_PREFIX):
        return _lookup_hangul(name[len(_HANGUL_PREFIX):])
    return _codes_by_name[name]


def lookup_with_alias(name, with_named_sequence=False):
    code = lookup(name, with_named_sequence)
    if 0 <= code - _ALIAS_BASE < len(_alias_targets):
        return _alias_targets[code - _ALIAS_BASE]
    return code


def name(code):
    """The character's name: KeyError for one without."""
    if _is_cjk_unified(code):
        return _CJK_PREFIX + hex(code)[2:].upper()
    if 0xAC00 <= code <= 0xD7A3:
        index = code - 0xAC00
        t = index % len(_HANGUL_T)
        v = (index // len(_HANGUL_T)) % len(_HANGUL_V)
        l = index // len(_HANGUL_T) // len(_HANGUL_V)
        return _HANGUL_PREFIX + _HANGUL_L[l] + _HANGUL_V[v] + _HANGUL_T[t]
    return _names_by_code[code]


# not modelled (unknowns of the model)
lookup_named_sequence = model_unknown("unicodedb_5_2_0.lookup_named_sequence")
casefold_lookup = model_unknown("unicodedb_5_2_0.casefold_lookup")
