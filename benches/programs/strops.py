# Benchmark: string building (the low-level helpers of __rpy_ll__/ll_str.py).
# argv[1] rounds (default 2000) of: a string grown by concatenation one piece at a
# time, slices of it, repetition, str() of characters, join of a list of words and
# '%' formatting; prints a checksum.
def work(n, words):
    s = ''
    for i in range(60):
        s = s + words[(n + i) % len(words)] + chr(97 + i % 26)
    total = len(s)
    for i in range(0, len(s) - 8, 7):
        total += len(s[i:i + 8]) + ord(s[i])
    total += len('ab' * (n % 50)) + len('-' * 40)
    parts = []
    for i in range(40):
        parts.append(str(chr(65 + i % 26)) + words[i % len(words)])
    j = ', '.join(parts)
    total += len(j) + len('%s=%d;' % (words[n % len(words)], n))
    return total


def entry_point(argv):
    rounds = 2000
    if len(argv) > 1:
        rounds = int(argv[1])
    words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta']
    total = 0
    for n in range(rounds):
        total = (total + work(n, words)) % 1000000007
    print total
    return 0


def target(*args):
    return entry_point, None
