"""The magnitudes of rpy-lsp's `rbigint` model: lists of digits of SHIFT bits, least
significant first, with no high zero digit except for zero itself; their comparison,
sum, difference, product, division and two's complement, as module functions the
`rbigint` class calls (a private module of the model; the reference has none)."""

SHIFT = 31
MASK = (1 << SHIFT) - 1
BASE = 1 << SHIFT


def _mag_normalize(d):
    n = len(d)
    while n > 1 and d[n - 1] == 0:
        n -= 1
    if n < len(d):
        assert n >= 0
        return d[:n]
    return d


def _mag_is_zero(d):
    return len(d) == 1 and d[0] == 0


def _mag_cmp(a, b):
    """-1, 0 or 1 as |a| < |b|, == or >."""
    if len(a) != len(b):
        if len(a) < len(b):
            return -1
        return 1
    i = len(a) - 1
    while i >= 0:
        if a[i] != b[i]:
            if a[i] < b[i]:
                return -1
            return 1
        i -= 1
    return 0


def _mag_add(a, b):
    if len(a) < len(b):
        a, b = b, a
    result = []
    carry = 0
    i = 0
    while i < len(a):
        s = a[i] + carry
        if i < len(b):
            s += b[i]
        result.append(s & MASK)
        carry = s >> SHIFT
        i += 1
    if carry:
        result.append(carry)
    return result


def _mag_sub(a, b):
    """|a| - |b| where |a| >= |b|."""
    result = []
    borrow = 0
    i = 0
    while i < len(a):
        s = a[i] - borrow
        if i < len(b):
            s -= b[i]
        if s < 0:
            s += BASE
            borrow = 1
        else:
            borrow = 0
        result.append(s)
        i += 1
    return _mag_normalize(result)


def _mag_mul(a, b):
    result = [0] * (len(a) + len(b))
    i = 0
    while i < len(a):
        ai = a[i]
        if ai != 0:
            carry = 0
            j = 0
            while j < len(b):
                t = result[i + j] + ai * b[j] + carry
                result[i + j] = t & MASK
                carry = t >> SHIFT
                j += 1
            k = i + len(b)
            while carry:
                t = result[k] + carry
                result[k] = t & MASK
                carry = t >> SHIFT
                k += 1
        i += 1
    return _mag_normalize(result)


def _mag_mul_small_add(a, m, c):
    """|a| * m + c for small non-negative m and c (below BASE)."""
    result = []
    carry = c
    i = 0
    while i < len(a):
        t = a[i] * m + carry
        result.append(t & MASK)
        carry = t >> SHIFT
        i += 1
    if carry:
        result.append(carry)
    return _mag_normalize(result)


def _mag_divmod_small(a, n):
    """(|a| // n, |a| % n) for 0 < n < BASE."""
    result = [0] * len(a)
    rem = 0
    i = len(a) - 1
    while i >= 0:
        cur = (rem << SHIFT) | a[i]
        result[i] = cur // n
        rem = cur % n
        i -= 1
    return _mag_normalize(result), rem


def _mag_divmod(a, b):
    """(|a| // |b|, |a| % |b|) for |b| > 0: schoolbook long division one digit of
    the quotient at a time, each guessed from the leading digits and corrected (so
    that a long division costs len(b) * (len(a) - len(b) + 1) digit steps, as the
    reference's; a bit-at-a-time division made Euclid's algorithm on numbers of a few
    thousand digits take hours)."""
    if len(b) == 1:
        q, r = _mag_divmod_small(a, b[0])
        return q, [r]
    if _mag_cmp(a, b) < 0:
        return [0], a
    # scale both so that the divisor's top digit has its high bit set: the guess
    # from the two leading digits is then at most two too big
    shift = 0
    top = b[len(b) - 1]
    while (top << shift) < (BASE >> 1):
        shift += 1
    v = _mag_shift_left(b, shift)
    n = len(b)
    u = _mag_shift_left(a, shift)
    if len(u) == len(a):
        u.append(0)
    m = len(u) - n - 1
    vtop = v[n - 1]
    vnext = v[n - 2]
    quotient = [0] * (m + 1)
    j = m
    while j >= 0:
        num = (u[j + n] << SHIFT) | u[j + n - 1]
        qhat = num // vtop
        rhat = num - qhat * vtop
        while qhat >= BASE or qhat * vnext > ((rhat << SHIFT) | u[j + n - 2]):
            qhat -= 1
            rhat += vtop
            if rhat >= BASE:
                break
        # u[j .. j+n] -= qhat * v
        carry = 0
        i = 0
        while i < n:
            p = qhat * v[i] + carry
            carry = p >> SHIFT
            t = u[i + j] - (p & MASK)
            if t < 0:
                t += BASE
                carry += 1
            u[i + j] = t
            i += 1
        t = u[j + n] - carry
        while t < 0:
            # the guess was too big (by one, rarely): add the divisor back
            qhat -= 1
            c = 0
            i = 0
            while i < n:
                s = u[i + j] + v[i] + c
                u[i + j] = s & MASK
                c = s >> SHIFT
                i += 1
            t += c
        u[j + n] = t
        quotient[j] = qhat
        j -= 1
    assert n >= 0
    rem = _mag_shift_right(u[:n], shift)
    return _mag_normalize(quotient), rem


def _mag_shift_left(d, shift):
    """|d| << shift for 0 <= shift < SHIFT, as a new list (one digit longer only
    when bits move out of the top digit)."""
    if shift == 0:
        return d[:]
    result = []
    carry = 0
    i = 0
    while i < len(d):
        t = (d[i] << shift) | carry
        result.append(t & MASK)
        carry = t >> SHIFT
        i += 1
    if carry:
        result.append(carry)
    return result


def _mag_shift_right(d, shift):
    """|d| >> shift for 0 <= shift < SHIFT, normalized."""
    if shift == 0:
        return _mag_normalize(d)
    result = [0] * len(d)
    i = 0
    while i < len(d):
        t = d[i] >> shift
        if i + 1 < len(d):
            t |= (d[i + 1] << (SHIFT - shift)) & MASK
        result[i] = t
        i += 1
    return _mag_normalize(result)


def _mag_from_nonneg(x):
    """The magnitude of a non-negative int."""
    if x == 0:
        return [0]
    result = []
    while x:
        result.append(x & MASK)
        x >>= SHIFT
    return result


def _mag_twos(d, sign, n):
    """n digits of the two's complement of (sign, d)."""
    result = []
    i = 0
    while i < n:
        if i < len(d):
            result.append(d[i])
        else:
            result.append(0)
        i += 1
    if sign < 0:
        i = 0
        while i < n:
            result[i] = (~result[i]) & MASK
            i += 1
        result = _mag_add_one(result, n)
    return result


def _mag_add_one(d, n):
    result = []
    carry = 1
    i = 0
    while i < n:
        t = d[i] + carry
        result.append(t & MASK)
        carry = t >> SHIFT
        i += 1
    return result
