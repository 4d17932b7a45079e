# Benchmark: allocation. binary-trees: a stretch tree of depth max+1, a
# long-lived tree of depth max, and many short-lived trees of depths
# 4, 6, ..., max built bottom-up and counted; argv[1] is max (default 16).


class Node(object):
    def __init__(self, left, right):
        self.left = left
        self.right = right


def make(depth):
    if depth == 0:
        return Node(None, None)
    return Node(make(depth - 1), make(depth - 1))


def check(node):
    if node.left is None:
        return 1
    return 1 + check(node.left) + check(node.right)


def entry_point(argv):
    max_depth = 16
    if len(argv) > 1:
        max_depth = int(argv[1])
    min_depth = 4
    if max_depth < min_depth + 2:
        max_depth = min_depth + 2
    print "stretch tree of depth %d\t check: %d" % (max_depth + 1, check(make(max_depth + 1)))
    long_lived = make(max_depth)
    depth = min_depth
    while depth <= max_depth:
        iterations = 1 << (max_depth - depth + min_depth)
        total = 0
        for i in range(iterations):
            total += check(make(depth))
        print "%d\t trees of depth %d\t check: %d" % (iterations, depth, total)
        depth += 2
    print "long lived tree of depth %d\t check: %d" % (max_depth, check(long_lived))
    return 0


def target(*args):
    return entry_point, None
