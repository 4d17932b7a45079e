"""rpy-lsp's model of `rpython.rlib.rlocale`: the C library's locale functions.

The constants are those of the reference's platform (glibc on x86-64 Linux), which the
toolchain asks the C compiler for; `LC_MIN` and `LC_MAX` are not defined there. The C
functions are declared with `rffi.llexternal`: `check` sees their types, `build` calls
them, `run` stops at the first one called."""
from rpython.rtyper.lltypesystem import rffi, lltype


class LocaleError(Exception):
    _rpy_complete_ = True    # its one attribute is `message`, as the reference's

    def __init__(self, message):
        self.message = message


HAVE_LANGINFO = True
HAVE_LIBINTL = True
HAVE_BIND_TEXTDOMAIN_CODESET = True

LC_CTYPE = 0
LC_NUMERIC = 1
LC_TIME = 2
LC_COLLATE = 3
LC_MONETARY = 4
LC_MESSAGES = 5
LC_ALL = 6
LC_PAPER = 7
LC_NAME = 8
LC_ADDRESS = 9
LC_TELEPHONE = 10
LC_MEASUREMENT = 11
LC_IDENTIFICATION = 12
CHAR_MAX = 127

constant_names = ('LC_CTYPE', 'LC_NUMERIC', 'LC_TIME', 'LC_COLLATE', 'LC_MONETARY',
                  'LC_MESSAGES', 'LC_ALL', 'LC_PAPER', 'LC_NAME', 'LC_ADDRESS',
                  'LC_TELEPHONE', 'LC_MEASUREMENT', 'LC_IDENTIFICATION', 'LC_MIN',
                  'LC_MAX', 'CHAR_MAX')

# nl_langinfo's items
RADIXCHAR = 65536
THOUSEP = 65537
CRNCYSTR = 262159
ABDAY_1 = 131072
DAY_1 = 131079
ABMON_1 = 131086
MON_1 = 131098
AM_STR = 131110
PM_STR = 131111
D_T_FMT = 131112
D_FMT = 131113
T_FMT = 131114
T_FMT_AMPM = 131115
ERA = 131116
ERA_D_FMT = 131118
ALT_DIGITS = 131119
ERA_D_T_FMT = 131120
ERA_T_FMT = 131121
CODESET = 14
YESEXPR = 327680
NOEXPR = 327681
_DATE_FMT = 131180

langinfo_names = ['RADIXCHAR', 'THOUSEP', 'CRNCYSTR', 'D_T_FMT', 'D_FMT', 'T_FMT',
                  'AM_STR', 'PM_STR', 'CODESET', 'T_FMT_AMPM', 'ERA', 'ERA_D_FMT',
                  'ERA_D_T_FMT', 'ERA_T_FMT', 'ALT_DIGITS', 'YESEXPR', 'NOEXPR',
                  '_DATE_FMT']
for _i in range(1, 8):
    globals()['DAY_%d' % _i] = DAY_1 + _i - 1
    globals()['ABDAY_%d' % _i] = ABDAY_1 + _i - 1
    langinfo_names.append('DAY_%d' % _i)
    langinfo_names.append('ABDAY_%d' % _i)
for _i in range(1, 13):
    globals()['MON_%d' % _i] = MON_1 + _i - 1
    globals()['ABMON_%d' % _i] = ABMON_1 + _i - 1
    langinfo_names.append('MON_%d' % _i)
    langinfo_names.append('ABMON_%d' % _i)
del _i

constants = {}
for _name in constant_names + tuple(langinfo_names):
    if _name in globals():
        constants[_name] = globals()[_name]
del _name

# the toolchain's configured `struct lconv`: its `char` fields, declared `rffi.UCHAR`, get
# the C field's type, a signed char on the reference's platform
lconv = rffi.CStruct('lconv',
                     ('decimal_point', rffi.CCHARP), ('thousands_sep', rffi.CCHARP),
                     ('grouping', rffi.CCHARP), ('int_curr_symbol', rffi.CCHARP),
                     ('currency_symbol', rffi.CCHARP), ('mon_decimal_point', rffi.CCHARP),
                     ('mon_thousands_sep', rffi.CCHARP), ('mon_grouping', rffi.CCHARP),
                     ('positive_sign', rffi.CCHARP), ('negative_sign', rffi.CCHARP),
                     ('int_frac_digits', rffi.SIGNEDCHAR), ('frac_digits', rffi.SIGNEDCHAR),
                     ('p_cs_precedes', rffi.SIGNEDCHAR), ('p_sep_by_space', rffi.SIGNEDCHAR),
                     ('n_cs_precedes', rffi.SIGNEDCHAR), ('n_sep_by_space', rffi.SIGNEDCHAR),
                     ('p_sign_posn', rffi.SIGNEDCHAR), ('n_sign_posn', rffi.SIGNEDCHAR))



class cConfig(object):
    """What the reference's configuration found, by name (`cConfig.LC_CTYPE`)."""
    pass


for _name in constant_names + tuple(langinfo_names):
    setattr(cConfig, _name, globals().get(_name))
del _name
cConfig.lconv = lconv
cConfig.HAVE_BIND_TEXTDOMAIN_CODESET = HAVE_BIND_TEXTDOMAIN_CODESET


def external(name, args, result, calling_conv='c', **kwds):
    return rffi.llexternal(name, args, result, calling_conv=calling_conv,
                           sandboxsafe=True, **kwds)


_lconv = lltype.Ptr(lconv)
localeconv = external('localeconv', [], _lconv)


def numeric_formatting():
    """The decimal point, thousands separator and grouping of the current locale."""
    conv = localeconv()
    decimal_point = rffi.charp2str(conv.c_decimal_point)
    thousands_sep = rffi.charp2str(conv.c_thousands_sep)
    grouping = rffi.charp2str(conv.c_grouping)
    return decimal_point, thousands_sep, grouping


_setlocale = external('setlocale', [rffi.INT, rffi.CCHARP], rffi.CCHARP)


def setlocale(category, locale):
    ll_result = _setlocale(rffi.cast(rffi.INT, category), locale)
    if not ll_result:
        raise LocaleError("unsupported locale setting")
    return rffi.charp2str(ll_result)


isalpha = external('isalpha', [rffi.INT], rffi.INT)
isupper = external('isupper', [rffi.INT], rffi.INT)
toupper = external('toupper', [rffi.INT], rffi.INT)
islower = external('islower', [rffi.INT], rffi.INT)
tolower = external('tolower', [rffi.INT], rffi.INT)
isalnum = external('isalnum', [rffi.INT], rffi.INT)

_nl_langinfo = external('nl_langinfo', [rffi.INT], rffi.CCHARP)


def nl_langinfo(key):
    if key in constants.values():
        return rffi.charp2str(_nl_langinfo(rffi.cast(rffi.INT, key)))
    raise ValueError
