# Benchmark: list permutations. fannkuch-redux: for every permutation of
# 1..n (generated with a counting array), count the prefix reversals needed
# until 1 comes first; prints the checksum and the maximum flip count.
# argv[1] is n (default 10).


def fannkuch(n):
    perm1 = [i for i in range(n)]
    count = [0] * n
    perm = [0] * n
    max_flips = 0
    checksum = 0
    sign = 1
    r = n
    nperm = 0
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        for i in range(n):
            perm[i] = perm1[i]
        flips = 0
        k = perm[0]
        while k != 0:
            i = 0
            j = k
            while i < j:
                t = perm[i]
                perm[i] = perm[j]
                perm[j] = t
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        checksum += sign * flips
        sign = -sign
        nperm += 1
        # next permutation
        while True:
            if r == n:
                return checksum, max_flips, nperm
            first = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = first
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1


def entry_point(argv):
    n = 10
    if len(argv) > 1:
        n = int(argv[1])
    checksum, max_flips, nperm = fannkuch(n)
    print checksum
    print "Pfannkuchen(%d) = %d" % (n, max_flips)
    print "permutations:", nperm
    return 0


def target(*args):
    return entry_point, None
