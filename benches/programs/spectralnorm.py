# Benchmark: float loops over lists. spectral-norm: 10 rounds of the power
# method on the infinite matrix A(i, j) = 1 / ((i + j)(i + j + 1) / 2 + i + 1)
# truncated to n x n; argv[1] is n (default 1000). Prints the norm * 1e9.
import math


def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def times_a(u, out, n):
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out[i] = s


def times_at(u, out, n):
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out[i] = s


def times_ata(u, out, tmp, n):
    times_a(u, tmp, n)
    times_at(tmp, out, n)


def entry_point(argv):
    n = 1000
    if len(argv) > 1:
        n = int(argv[1])
    u = [1.0] * n
    v = [0.0] * n
    tmp = [0.0] * n
    for i in range(10):
        times_ata(u, v, tmp, n)
        times_ata(v, u, tmp, n)
    vbv = u[0] * v[0]
    vv = v[0] * v[0]
    for i in range(1, n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    norm = math.sqrt(vbv / vv)
    print "n =", n
    print "spectral norm * 1e9:", int(norm * 1e9)
    return 0


def target(*args):
    return entry_point, None
