#!/usr/bin/env bash
# Prints a generated standalone RPython program of about N lines (default 10000): classes
# with methods, loops, exceptions, string formatting and dispatch tables built at import time.
n=${1:-10000}
units=$(( n / 37 ))
echo "import os"
echo "from rpython.rlib.rarithmetic import intmask"
for ((i = 0; i < units; i++)); do
cat <<PY
class Node$i(object):
    def __init__(self, value):
        self.value = value
        self.items = []

    def add(self, x):
        self.items.append(x + self.value)
        return len(self.items)

    def total(self):
        t = 0
        for x in self.items:
            if x > 10:
                t += x
            else:
                t -= 1
        return t


def work$i(n):
    node = Node$i(n)
    i = 0
    while i < n:
        node.add(i)
        i += 1
    try:
        r = node.total()
    except ValueError:
        r = -1
    s = "%d items: %s" % (len(node.items), str(r))
    return intmask(r) + len(s)


TABLE$i = {}
for _name in ["a", "b", "c"]:
    TABLE$i[_name + "$i"] = len(_name)
PY
done
echo "def entry_point(argv):"
echo "    total = 0"
for ((i = 0; i < units; i++)); do
  echo "    total += work$i(len(argv))"
done
echo "    os.write(1, str(total) + '\\n')"
echo "    return 0"
echo
echo "def target(*args):"
echo "    return entry_point, None"
