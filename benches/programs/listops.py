# Benchmark: list operations (the low-level helpers of __rpy_ll__/ll_list.py).
# argv[1] rounds (default 2000) of: a queue of ints filled with append and
# drained with pop(0) and pop(), inserts near the front, slices and their
# concatenation, `in` and index on lists of ints, strings and tuples, remove,
# extend, slice assignment and deletion, == of lists; prints a checksum.
def work(n, words, pts):
    q = []
    for i in range(200):
        q.append(i * n % 97)
    s = 0
    while len(q) > 100:
        s += q.pop(0) + q.pop()
    for i in range(50):
        q.insert(i % 7, i)
    a = q[10:60]
    b = q[:30] + a
    s += len(b) + b[len(b) - 1]
    for i in range(40):
        if i in q:
            s += q.index(i)
    w = words[n % len(words)]
    if w in words:
        s += words.index(w)
    p = pts[n % len(pts)]
    if p in pts:
        s += pts.index(p)
    q.remove(q[5])
    q.extend(a)
    q[3:9] = a[:4]
    del q[20:40]
    if q[:10] == b[:10]:
        s += 1
    return s + len(q)


def entry_point(argv):
    rounds = 2000
    if len(argv) > 1:
        rounds = int(argv[1])
    words = ["w%d" % i for i in range(60)]
    pts = [(i, i * i) for i in range(60)]
    total = 0
    for n in range(rounds):
        total += work(n, words, pts)
    print total
    return 0


def target(*args):
    return entry_point, None
