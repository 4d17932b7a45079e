"""rpy-lsp's model of `rpython.rlib.rbigint`: arbitrary-precision integers, written in
RPython so that the annotator types a program's uses of it and `run`/`build` can compile it.

The public surface is exactly rpython 0.2.1's (`rbigint.fromint`, `fromstr`, `frombytes`,
`add`, `mul`, `floordiv`, `toint`, `tobytes`, `str`, `int_add`…, `_normalize`, `_divrem`),
so the class declares it complete (`_rpy_complete_`): an attribute the reference's rbigint
does not have is an error, as there. The algorithms are plain schoolbook ones over a
magnitude list (little-endian digits of SHIFT bits, no high zero digit except for zero
itself, `size == len(_digits)`; their arithmetic is in `_rbigint_mag`), because a model needs to be right, not fast; helpers that
are not methods of the reference's class are module functions. `sign` is -1, 0 or 1 and
zero always has sign 0.
"""
import math
from rpython.rlib.rarithmetic import intmask, ovfcheck, r_uint, r_ulonglong, r_longlong
from rpython.rlib.rarithmetic import _digit_value
from rpython.rlib.rstring import ParseStringError, InvalidBaseError
from rpython.rlib.objectmodel import specialize

from rpython.rlib._rbigint_mag import SHIFT, MASK, BASE
from rpython.rlib._rbigint_mag import _mag_add, _mag_add_one, _mag_cmp, _mag_divmod
from rpython.rlib._rbigint_mag import _mag_divmod_small, _mag_from_nonneg
from rpython.rlib._rbigint_mag import _mag_is_zero, _mag_mul, _mag_mul_small_add
from rpython.rlib._rbigint_mag import _mag_normalize, _mag_sub
from rpython.rlib._rbigint_mag import _mag_twos

FLOAT_MULTIPLIER = float(1 << SHIFT)

BASE8 = '01234567'
BASE10 = '0123456789'
BASE16 = '0123456789abcdef'

MAXINT = 9223372036854775807
MININT = -MAXINT - 1


class InvalidEndiannessError(Exception):
    pass


class InvalidSignednessError(Exception):
    pass


def _from_twos(d, n):
    """The rbigint whose n-digit two's complement is d."""
    if d[n - 1] >> (SHIFT - 1):
        inverted = []
        i = 0
        while i < n:
            inverted.append((~d[i]) & MASK)
            i += 1
        return _make(_mag_add_one(inverted, n), -1)
    return _make(d, 1)


def _make(d, sign):
    d = _mag_normalize(d)
    if _mag_is_zero(d):
        return rbigint([0], 0, 1)
    return rbigint(d, sign, len(d))


def _strip_spaces(s):
    start = 0
    stop = len(s)
    while start < stop and s[start] in ' \f\n\r\t\v':
        start += 1
    while stop > start and s[stop - 1] in ' \f\n\r\t\v':
        stop -= 1
    assert stop >= 0
    return s[start:stop]


class rbigint(object):
    """An arbitrary-precision integer (immutable)."""
    _immutable_ = True
    _immutable_fields_ = ["_digits"]
    _rpy_complete_ = True

    def __init__(self, digits=[0], sign=0, size=0):
        self._digits = digits
        assert size >= 0
        self.size = size or len(digits)
        self.sign = sign

    def __eq__(self, other):
        """NOT_RPYTHON: for untranslated tests only, as in the reference."""
        if not isinstance(other, rbigint):
            return NotImplemented
        return self.eq(other)

    def __ne__(self, other):
        """NOT_RPYTHON"""
        return not (self == other)

    def digit(self, x):
        return self._digits[x]

    def widedigit(self, x):
        # a digit has SHIFT bits here: an int holds two of them
        return self._digits[x]

    def udigit(self, x):
        return r_uint(self._digits[x])

    @specialize.argtype(2)
    def setdigit(self, x, val):
        val = intmask(val & MASK)
        assert val >= 0
        self._digits[x] = val

    def numdigits(self):
        return self.size

    def _normalize(self):
        """Drops the high zero digits (sign 0 for zero), after setdigit()."""
        i = self.size
        while i > 1 and self._digits[i - 1] == 0:
            i -= 1
        assert i > 0
        if i != len(self._digits):
            self._digits = self._digits[:i]
        self.size = i
        if i == 1 and self._digits[0] == 0:
            self.sign = 0

    # ____________________________________________________________
    # constructors

    @staticmethod
    def fromint(intval):
        if intval == 0:
            return rbigint([0], 0, 1)
        if intval > 0:
            d = _mag_from_nonneg(intval)
            return rbigint(d, 1, len(d))
        # -intval may not fit a word: take the lowest digit of the negative number, then
        # the rest is small enough to negate
        q = intval // -BASE
        d = [-(intval + q * BASE)]
        if q > 0:
            for digit in _mag_from_nonneg(q):
                d.append(digit)
        return rbigint(d, -1, len(d))

    @staticmethod
    def frombool(b):
        if b:
            return rbigint([1], 1, 1)
        return rbigint([0], 0, 1)

    @staticmethod
    def fromlong(l):
        """NOT_RPYTHON: a prebuilt constant from a Python long."""
        sign = 1
        if l < 0:
            sign = -1
            l = -l
        elif l == 0:
            return rbigint([0], 0, 1)
        d = []
        while l:
            d.append(int(l & MASK))
            l = l >> SHIFT
        return rbigint(d, sign, len(d))

    @staticmethod
    def fromfloat(dval):
        if math.isinf(dval):
            raise OverflowError("cannot convert float infinity to integer")
        if math.isnan(dval):
            raise ValueError("cannot convert float NaN to integer")
        return rbigint._fromfloat_finite(dval)

    @staticmethod
    def _fromfloat_finite(dval):
        sign = 1
        if dval < 0.0:
            sign = -1
            dval = -dval
        dval = math.floor(dval)
        if dval < 1.0:
            return rbigint([0], 0, 1)
        d = []
        while dval >= 1.0:
            digit = math.fmod(dval, FLOAT_MULTIPLIER)
            d.append(int(digit))
            dval = math.floor(dval / FLOAT_MULTIPLIER)
        return _make(d, sign)

    @staticmethod
    @specialize.argtype(0)
    def fromrarith_int(i):
        if i < 0:
            return rbigint.fromint(intmask(i))
        d = []
        while i:
            d.append(intmask(i & MASK))
            i = i >> SHIFT
        if not d:
            return rbigint([0], 0, 1)
        return rbigint(d, 1, len(d))

    @staticmethod
    def frombytes(s, byteorder, signed):
        """The number whose two's complement (when `signed`) bytes are `s`."""
        if byteorder != 'big' and byteorder != 'little':
            raise InvalidEndiannessError()
        n = len(s)
        if n == 0:
            return rbigint([0], 0, 1)
        if byteorder == 'big':
            msb = ord(s[0])
        else:
            msb = ord(s[n - 1])
        negative = signed and msb >= 0x80
        accum = 0
        accumbits = 0
        digits = []
        carry = 1
        k = 0
        while k < n:
            if byteorder == 'big':
                c = ord(s[n - 1 - k])
            else:
                c = ord(s[k])
            if negative:
                c = (0xFF ^ c) + carry
                carry = c >> 8
                c &= 0xFF
            accum |= c << accumbits
            accumbits += 8
            if accumbits >= SHIFT:
                digits.append(accum & MASK)
                accum >>= SHIFT
                accumbits -= SHIFT
            k += 1
        if accumbits:
            digits.append(accum)
        if negative:
            return _make(digits, -1)
        return _make(digits, 1)

    @staticmethod
    def from_list_n_bits(list, nbits):
        """The number whose digits of `nbits` bits (least significant first) are `list`."""
        if len(list) == 0:
            return rbigint([0], 0, 1)
        if not (1 <= nbits <= SHIFT):
            raise ValueError
        d = [0]
        i = len(list) - 1
        while i >= 0:
            d = _mag_mul_small_add(d, 1 << nbits, list[i])
            i -= 1
        return _make(d, 1)

    @staticmethod
    def _from_numberstring_parser(parser):
        """The number `rstring.NumberStringParser` reads (its digits, base and sign)."""
        d = [0]
        while True:
            digit = parser.next_digit()
            if digit == -1:
                break
            d = _mag_mul_small_add(d, parser.base, digit)
        return _make(d, parser.sign)

    @staticmethod
    def fromdecimalstr(s):
        """The number of a decimal literal its caller has already checked: an optional
        sign and digits, str or unicode. The reference trusts it and reports no error."""
        p = 0
        sign = 1
        if s[p] == '-':
            sign = -1
            p += 1
        elif s[p] == '+':
            p += 1
        d = [0]
        while p < len(s):
            d = _mag_mul_small_add(d, 10, ord(s[p]) - ord('0'))
            p += 1
        return _make(d, sign)

    @staticmethod
    def fromstr(s, base=0):
        """As long(s, base): an optional sign (spaces may follow it), prefix and 'l'/'L'
        suffix; ParseStringError for anything else, whose message names the base the caller
        gave (0 when it was guessed from the prefix), as the reference's parser does."""
        s = _strip_spaces(s)
        if (s.endswith('l') or s.endswith('L')) and base < 22:
            stop = len(s) - 1
            assert stop >= 0
            s = s[:stop]
        original_base = base
        sign = 1
        if s.startswith('-'):
            sign = -1
            s = _strip_spaces(s[1:])
        elif s.startswith('+'):
            s = _strip_spaces(s[1:])
        prefix = ''
        if len(s) >= 2 and s[0] == '0':
            prefix = s[1].lower()
        if base == 0:
            if prefix == 'x':
                base = 16
            elif prefix == 'b':
                base = 2
            elif s.startswith('0'):
                base = 8
            else:
                base = 10
        elif base < 2 or base > 36:
            raise InvalidBaseError("long() base must be >= 2 and <= 36")
        i = 0
        if (base == 16 and prefix == 'x') or (base == 8 and prefix == 'o') or \
                (base == 2 and prefix == 'b'):
            i = 2
        if i >= len(s):
            raise ParseStringError("invalid literal for long() with base %d" % original_base)
        d = [0]
        while i < len(s):
            v = _digit_value(s[i])
            if v >= base:
                raise ParseStringError("invalid literal for long() with base %d" %
                                       original_base)
            d = _mag_mul_small_add(d, base, v)
            i += 1
        return _make(d, sign)

    # ____________________________________________________________
    # conversions

    def toint(self):
        """The int of the same value; OverflowError if it does not fit a word."""
        acc = 0
        i = self.size - 1
        try:
            while i >= 0:
                acc = ovfcheck(acc * BASE)
                acc = ovfcheck(acc - self._digits[i])
                i -= 1
        except OverflowError:
            raise OverflowError("long int too large to convert to int")
        if self.sign >= 0:
            if acc == MININT:
                raise OverflowError("long int too large to convert to int")
            return -acc
        return acc

    def _toint_helper(self):
        x = self._touint_helper()
        if self.sign >= 0:
            res = intmask(x)
            if res < 0:
                raise OverflowError
        else:
            res = intmask(-x)
            if res >= 0:
                raise OverflowError
        return res

    def _touint_helper(self):
        x = r_uint(0)
        i = self.numdigits() - 1
        while i >= 0:
            prev = x
            x = (x << SHIFT) + self.udigit(i)
            if (x >> SHIFT) != prev:
                raise OverflowError("long int too large to convert to unsigned int")
            i -= 1
        return x

    def tobytes(self, nbytes, byteorder, signed):
        """`nbytes` bytes of the number (two's complement when `signed`)."""
        if byteorder != 'big' and byteorder != 'little':
            raise InvalidEndiannessError()
        negative = self.sign == -1
        if negative and not signed:
            raise InvalidSignednessError()
        # the bytes of the magnitude, least significant first, without zeros on top
        magnitude = []
        pending = 0
        npending = 0
        for i in range(self.numdigits()):
            pending |= self.digit(i) << npending
            npending += SHIFT
            while npending >= 8:
                magnitude.append(pending & 0xFF)
                pending >>= 8
                npending -= 8
        magnitude.append(pending)
        while magnitude and magnitude[-1] == 0:
            magnitude.pop()
        used = len(magnitude)
        if negative and nbytes == 0 and used == 1 and magnitude[0] == 1:
            # all sign bits: the reference writes -1 in no bytes at all
            return ''
        if used > nbytes:
            raise OverflowError()
        while len(magnitude) < nbytes:
            magnitude.append(0)
        if negative:
            # two's complement over nbytes: invert, add one
            carry = 1
            for i in range(nbytes):
                value = (magnitude[i] ^ 0xFF) + carry
                carry = value >> 8
                magnitude[i] = value & 0xFF
            # the top bit must say negative, or the number did not fit
            if magnitude[nbytes - 1] < 0x80:
                raise OverflowError()
        elif signed and used == nbytes and nbytes > 0 and magnitude[nbytes - 1] >= 0x80:
            # the top bit would say negative
            raise OverflowError()
        if byteorder == 'big':
            magnitude.reverse()
        return ''.join([chr(byte) for byte in magnitude])

    def tolonglong(self):
        return r_longlong(self.toint())

    def tobool(self):
        return self.sign != 0

    def touint(self):
        if self.sign < 0:
            raise ValueError("cannot convert negative integer to unsigned")
        if self.size > 3 or (self.size == 3 and self._digits[2] >= 4):
            raise OverflowError("long int too large to convert to unsigned int")
        return self.uintmask()

    def toulonglong(self):
        return r_ulonglong(self.touint())

    def uintmask(self):
        acc = r_uint(0)
        i = self.size - 1
        while i >= 0:
            acc = (acc << SHIFT) | r_uint(self._digits[i])
            i -= 1
        if self.sign < 0:
            return r_uint(0) - acc
        return acc

    def ulonglongmask(self):
        return r_ulonglong(self.uintmask())

    def tofloat(self):
        acc = 0.0
        i = self.size - 1
        while i >= 0:
            acc = acc * FLOAT_MULTIPLIER + float(self._digits[i])
            i -= 1
        if math.isinf(acc):
            raise OverflowError("long int too large to convert to float")
        if self.sign < 0:
            return -acc
        return acc

    def tolong(self):
        """NOT_RPYTHON"""
        l = 0
        i = self.size - 1
        while i >= 0:
            l = (l << SHIFT) + self._digits[i]
            i -= 1
        return l * self.sign

    def format(self, digits, prefix='', suffix=''):
        """The number in base len(digits), digits[k] spelling the digit k (zero is
        "0" whatever the digits, as in the reference)."""
        if self.sign == 0:
            return prefix + '0' + suffix
        base = len(digits)
        assert base >= 2 and base <= 36
        # divide by the biggest power of the base below BASE, and spell each
        # remainder as that many digits (fewer for the leading one)
        chunk = base
        per = 1
        while chunk * base < BASE:
            chunk *= base
            per += 1
        out = []
        d = self._digits
        while not _mag_is_zero(d):
            d, r = _mag_divmod_small(d, chunk)
            last = _mag_is_zero(d)
            k = 0
            while k < per and (r != 0 or not last):
                out.append(digits[r % base])
                r = r // base
                k += 1
        out.reverse()
        result = prefix + ''.join(out) + suffix
        if self.sign < 0:
            return '-' + result
        return result

    def str(self):
        return self.format(BASE10)

    def repr(self):
        return self.format(BASE10, suffix='L')

    def hex(self):
        return self.format(BASE16, prefix='0x', suffix='L')

    def oct(self):
        if self.sign == 0:
            return '0L'
        return self.format(BASE8, prefix='0', suffix='L')

    def hash(self):
        h = 0
        i = self.size - 1
        while i >= 0:
            h = intmask((h << SHIFT) ^ self._digits[i])
            i -= 1
        return h * self.sign

    def bit_length(self):
        if self.sign == 0:
            return 0
        top = self._digits[self.size - 1]
        bits = 0
        while top:
            bits += 1
            top >>= 1
        return (self.size - 1) * SHIFT + bits

    def log(self, base):
        """log(self) in `base` (0.0 meaning e) of a positive number, never overflowing:
        from the leading bits scaled to a float and the count of bits left out, as
        the reference does (ValueError for zero and negative numbers)."""
        if base == 10.0:
            return _log_scaled(self, 10)
        if base == 2.0:
            return _log_scaled(self, 2)
        result = _log_scaled(self, 0)
        if base != 0.0:
            result /= math.log(base)
        return result

    # ____________________________________________________________
    # comparisons

    def eq(self, other):
        return _big_cmp(self, other) == 0

    def ne(self, other):
        return _big_cmp(self, other) != 0

    def lt(self, other):
        return _big_cmp(self, other) < 0

    def le(self, other):
        return _big_cmp(self, other) <= 0

    def gt(self, other):
        return _big_cmp(self, other) > 0

    def ge(self, other):
        return _big_cmp(self, other) >= 0

    def int_eq(self, other):
        return self.eq(rbigint.fromint(other))

    def int_ne(self, other):
        return self.ne(rbigint.fromint(other))

    def int_lt(self, other):
        return self.lt(rbigint.fromint(other))

    def int_le(self, other):
        return self.le(rbigint.fromint(other))

    def int_gt(self, other):
        return self.gt(rbigint.fromint(other))

    def int_ge(self, other):
        return self.ge(rbigint.fromint(other))

    # ____________________________________________________________
    # arithmetic

    def neg(self):
        return rbigint(self._digits, -self.sign, self.size)

    def abs(self):
        if self.sign < 0:
            return rbigint(self._digits, 1, self.size)
        return self

    def invert(self):
        return self.add(rbigint([1], 1, 1)).neg()

    def add(self, other):
        if self.sign == 0:
            return other
        if other.sign == 0:
            return self
        if self.sign == other.sign:
            return _make(_mag_add(self._digits, other._digits), self.sign)
        c = _mag_cmp(self._digits, other._digits)
        if c == 0:
            return rbigint([0], 0, 1)
        if c > 0:
            return _make(_mag_sub(self._digits, other._digits), self.sign)
        return _make(_mag_sub(other._digits, self._digits), other.sign)

    def sub(self, other):
        return self.add(other.neg())

    def mul(self, other):
        if self.sign == 0 or other.sign == 0:
            return rbigint([0], 0, 1)
        return _make(_mag_mul(self._digits, other._digits), self.sign * other.sign)

    def divmod(self, other):
        """(self // other, self % other) rounding towards minus infinity."""
        div, mod = _divrem(self, other)
        if mod.sign * other.sign == -1:
            mod = mod.add(other)
            div = div.sub(rbigint([1], 1, 1))
        return div, mod

    def floordiv(self, other):
        div, mod = self.divmod(other)
        return div

    def div(self, other):
        return self.floordiv(other)

    def mod(self, other):
        div, mod = self.divmod(other)
        return mod

    def truediv(self, other):
        return _true_divide(self, other)

    def pow(self, other, modulus=None):
        if other.sign < 0:
            if modulus is None:
                raise ValueError("bigint pow() negative exponent")
            raise ValueError("pow 2nd argument cannot be negative when 3rd argument specified")
        if modulus is not None and modulus.sign == 0:
            raise ValueError("pow() 3rd argument cannot be 0")
        result = rbigint([1], 1, 1)
        base = self
        if modulus is not None:
            base = base.mod(modulus)
        i = 0
        while i < other.size:
            digit = other._digits[i]
            bit = 0
            last = i == other.size - 1
            while bit < SHIFT:
                if (digit >> bit) & 1:
                    result = result.mul(base)
                    if modulus is not None:
                        result = result.mod(modulus)
                bit += 1
                if last and (digit >> bit) == 0:
                    break
                base = base.mul(base)
                if modulus is not None:
                    base = base.mod(modulus)
            i += 1
        if modulus is not None:
            result = result.mod(modulus)
        return result

    def lshift(self, int_other):
        if int_other < 0:
            raise ValueError("negative shift count")
        if self.sign == 0 or int_other == 0:
            return self
        wordshift = int_other // SHIFT
        remshift = int_other % SHIFT
        d = [0] * wordshift
        carry = 0
        for digit in self._digits:
            t = (digit << remshift) | carry
            d.append(t & MASK)
            carry = t >> SHIFT
        if carry:
            d.append(carry)
        return _make(d, self.sign)

    # the reference's inliner must inline every call of it (see rtyper/rinline.rs)
    lshift._always_inline_ = True

    def lqshift(self, int_other):
        """lshift() by a count known to be valid (0 < int_other < SHIFT)."""
        assert int_other > 0
        return self.lshift(int_other)

    def rshift(self, int_other, dont_invert=False):
        if int_other < 0:
            raise ValueError("negative shift count")
        if self.sign == 0 or int_other == 0:
            return self
        if self.sign < 0 and not dont_invert:
            return self.invert().rshift(int_other).invert()
        wordshift = int_other // SHIFT
        if wordshift >= self.size:
            return rbigint([0], 0, 1)
        remshift = int_other % SHIFT
        d = []
        i = wordshift
        while i < self.size:
            t = self._digits[i] >> remshift
            if i + 1 < self.size:
                t |= (self._digits[i + 1] << (SHIFT - remshift)) & MASK
            d.append(t)
            i += 1
        return _make(d, self.sign)
    # inlined only where the reference's inliner can: never an error
    rshift._always_inline_ = 'try'

    def abs_rshift_and_mask(self, bigshiftcount, mask):
        """(abs(self) >> bigshiftcount) & mask, for a shift count of type r_ulonglong."""
        assert mask >= 0
        ndigits = self.numdigits()
        # the digit the shifted value starts in, and the bit it starts at there
        first = bigshiftcount / SHIFT
        if first >= ndigits:
            return 0
        first = intmask(first)
        bit = intmask(bigshiftcount % SHIFT)
        value = self.digit(first) >> bit
        # the mask wants bits beyond this digit: they come from the next one
        if mask > (MASK >> bit) and first + 1 < ndigits:
            value |= self.digit(first + 1) << (SHIFT - bit)
        return value & mask

    def and_(self, other):
        return _big_bitwise(self, other, '&')

    def or_(self, other):
        return _big_bitwise(self, other, '|')

    def xor(self, other):
        return _big_bitwise(self, other, '^')

    def int_add(self, other):
        return self.add(rbigint.fromint(other))

    def int_sub(self, other):
        return self.sub(rbigint.fromint(other))

    def int_mul(self, other):
        return self.mul(rbigint.fromint(other))

    def int_mod(self, other):
        return self.mod(rbigint.fromint(other))

    def int_and_(self, other):
        return self.and_(rbigint.fromint(other))

    def int_or_(self, other):
        return self.or_(rbigint.fromint(other))

    def int_xor(self, other):
        return self.xor(rbigint.fromint(other))

    def __repr__(self):
        return "<rbigint digits=%s, sign=%s, size=%d>" % (self._digits, self.sign, self.size)


ONERBIGINT = rbigint([1], 1, 1)
ONENEGATIVERBIGINT = rbigint([1], -1, 1)
NULLRBIGINT = rbigint([0], 0, 1)


# The reference's digits on x86-64 (SHIFT 63, with __int128); the float a logarithm
# starts from is made of whole digits of that size, so its rounding depends on it.
REF_SHIFT = 63
REF_MULTIPLIER = float(1 << REF_SHIFT)


def _ref_digit(v, k):
    """Bits [REF_SHIFT*k, REF_SHIFT*(k+1)) of |v|: the reference's k-th digit."""
    lo = REF_SHIFT * k
    i = lo // SHIFT
    off = lo - i * SHIFT
    result = 0
    got = -off
    while got < REF_SHIFT and i < v.size:
        if got <= 0:
            result = v._digits[i] >> (-got)
        else:
            take = REF_SHIFT - got
            result |= (v._digits[i] & ((1 << take) - 1)) << got
        got += SHIFT
        i += 1
    return result


def _log_scaled(v, which):
    """log (which 0), log10 (10) or log2 (2) of |v| > 0: the top reference digits
    folded into a float until 56 bits are in, plus the log of 2 times the bits of
    the digits left out."""
    if v.sign <= 0:
        raise ValueError("math domain error")
    i = (v.bit_length() - 1) // REF_SHIFT
    x = float(_ref_digit(v, i))
    needed = 56
    while i > 0 and needed > 0:
        i -= 1
        x = x * REF_MULTIPLIER + float(_ref_digit(v, i))
        needed -= REF_SHIFT
    bits = i * float(REF_SHIFT)
    if which == 10:
        return math.log10(x) + bits * math.log10(2.0)
    if which == 2:
        from rpython.rlib.rfloat import log2
        return log2(x) + bits * log2(2.0)
    return math.log(x) + bits * math.log(2.0)


def _big_cmp(a, b):
    if a.sign != b.sign:
        if a.sign < b.sign:
            return -1
        return 1
    c = _mag_cmp(a._digits, b._digits)
    if a.sign < 0:
        return -c
    return c


def _big_bitwise(a, b, op):
    n = max(a.size, b.size) + 1
    x = _mag_twos(a._digits, a.sign, n)
    y = _mag_twos(b._digits, b.sign, n)
    d = []
    i = 0
    while i < n:
        if op == '&':
            d.append(x[i] & y[i])
        elif op == '|':
            d.append(x[i] | y[i])
        else:
            d.append(x[i] ^ y[i])
        i += 1
    return _from_twos(d, n)


_DBL_MANT_DIG = 53
_DBL_MAX_EXP = 1024
_DBL_MIN_EXP = -1021


def _signed_float(x, negate):
    if negate:
        return -x
    return x


def _true_divide(a, b):
    """a / b as a float, as the reference computes it (CPython's long_true_divide): two
    operands below 2**53 divide as floats; otherwise an integer quotient of the
    magnitudes keeps two or three bits beyond the 53 (or fewer, for a subnormal result),
    is rounded half-even by hand with the bits lost on the way as a sticky bit, and is
    scaled back with ldexp. Kept from the reference: after rounding up it clears only the
    bits *below* the rounding bit, not the rounding bit itself."""
    if b.sign == 0:
        raise ZeroDivisionError("long division or modulo by zero")
    negate = (a.sign < 0) != (b.sign < 0)
    if a.sign == 0:
        return _signed_float(0.0, negate)
    a = a.abs()
    b = b.abs()
    a_bits = a.bit_length()
    b_bits = b.bit_length()
    if a_bits <= _DBL_MANT_DIG and b_bits <= _DBL_MANT_DIG:
        return _signed_float(float(a.toint()) / float(b.toint()), negate)
    diff = a_bits - b_bits
    if diff > _DBL_MAX_EXP:
        raise OverflowError("integer division result too large for a float")
    if diff < _DBL_MIN_EXP - _DBL_MANT_DIG - 1:
        return _signed_float(0.0, negate)
    shift = max(diff, _DBL_MIN_EXP) - _DBL_MANT_DIG - 2
    inexact = False
    if shift <= 0:
        x = a.lshift(-shift)
    else:
        x = a.rshift(shift)
        if not a.eq(x.lshift(shift)):
            inexact = True
    x, rem = _divrem(x, b)
    if rem.sign != 0:
        inexact = True
    x_bits = x.bit_length()
    extra_bits = max(x_bits, _DBL_MIN_EXP - shift) - _DBL_MANT_DIG
    mask = 1 << (extra_bits - 1)
    low = x.toint()
    if inexact:
        low |= 1
    if (low & mask) != 0 and (low & (3 * mask - 1)) != 0:
        low += mask
    low &= ~(mask - 1)
    dx = float(low)
    if shift + x_bits >= _DBL_MAX_EXP and (shift + x_bits > _DBL_MAX_EXP or
                                          dx == math.ldexp(1.0, x_bits)):
        raise OverflowError("integer division result too large for a float")
    return _signed_float(math.ldexp(dx, shift), negate)


def _divrem(a, b):
    """(a / b, a % b) truncating towards zero: the quotient has the sign of a*b, the
    remainder the sign of a."""
    if b.sign == 0:
        raise ZeroDivisionError("long division or modulo by zero")
    q, r = _mag_divmod(a._digits, b._digits)
    return _make(q, a.sign * b.sign), _make(r, a.sign)
