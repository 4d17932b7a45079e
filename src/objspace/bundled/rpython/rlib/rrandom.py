"""rpy-lsp's model of `rpython.rlib.rrandom`: the Mersenne Twister (MT19937) random
generator over 32-bit words held in r_uint, written in RPython. It gives the same numbers
as the reference for the same seed, and `jumpahead` stirs the state the same way."""
from rpython.rlib.rarithmetic import r_uint, intmask

N = 624
M = 397
MATRIX_A = r_uint(0x9908b0df)
UPPER_MASK = r_uint(0x80000000)
LOWER_MASK = r_uint(0x7fffffff)
MASK_32 = r_uint(0xffffffff)


class Random(object):
    def __init__(self, seed=r_uint(0)):
        self.state = [r_uint(0)] * N
        self.index = N
        self.init_genrand(seed)

    def init_genrand(self, s):
        """Fills the state from one 32-bit seed (Knuth's multiplier 1812433253)."""
        st = self.state
        prev = s & MASK_32
        st[0] = prev
        i = 1
        while i < N:
            prev = (r_uint(1812433253) * (prev ^ (prev >> 30)) + r_uint(i)) & MASK_32
            st[i] = prev
            i += 1
        self.index = N

    def init_by_array(self, init_key):
        """Fills the state from a list of 32-bit words (r_uint)."""
        self.init_genrand(r_uint(19650218))
        st = self.state
        n = len(init_key)
        i = 1
        j = 0
        k = max(N, n)
        while k > 0:
            prev = st[i - 1]
            st[i] = ((st[i] ^ ((prev ^ (prev >> 30)) * r_uint(1664525)))
                     + init_key[j] + r_uint(j)) & MASK_32
            i += 1
            j += 1
            if i >= N:
                st[0] = st[N - 1]
                i = 1
            if j >= n:
                j = 0
            k -= 1
        k = N - 1
        while k > 0:
            prev = st[i - 1]
            st[i] = ((st[i] ^ ((prev ^ (prev >> 30)) * r_uint(1566083941)))
                     - r_uint(i)) & MASK_32
            i += 1
            if i >= N:
                st[0] = st[N - 1]
                i = 1
            k -= 1
        st[0] = UPPER_MASK

    def _twist(self):
        """The next N words of the sequence, in place (indexes wrap around the state)."""
        st = self.state
        i = 0
        while i < N:
            y = (st[i] & UPPER_MASK) | (st[(i + 1) % N] & LOWER_MASK)
            value = st[(i + M) % N] ^ (y >> 1)
            if y & r_uint(1):
                value ^= MATRIX_A
            st[i] = value
            i += 1
        self.index = 0

    def genrand32(self):
        """The next 32-bit word (an r_uint), tempered."""
        if self.index >= N:
            self._twist()
        y = self.state[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & r_uint(0x9d2c5680)
        y ^= (y << 15) & r_uint(0xefc60000)
        y ^= y >> 18
        return y & MASK_32

    def random(self):
        """A float in [0.0, 1.0) with 53 random bits."""
        high = intmask(self.genrand32() >> 5)
        low = intmask(self.genrand32() >> 6)
        return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)

    def jumpahead(self, n):
        """Stirs the state from n: a permutation of the words, then each word i gets
        i + 1 added (the first, 1; a state of zeros becomes the upper bit)."""
        st = self.state
        i = N - 1
        while i > 1:
            j = n % i
            st[i], st[j] = st[j], st[i]
            i -= 1
        any_set = False
        i = 1
        while i < N:
            st[i] = (st[i] + r_uint(i + 1)) & MASK_32
            if st[i]:
                any_set = True
            i += 1
        if any_set:
            st[0] = (st[0] + r_uint(1)) & MASK_32
        else:
            st[0] = UPPER_MASK
        self.index = N
