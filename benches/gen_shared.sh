#!/usr/bin/env bash
# Prints a generated standalone RPython program of about N lines (default 10000) with the
# shape of a VM: one base class W_Root whose methods every subclass overrides, so each method
# call on a W_Root is a call family as large as the program (as PyPy's W_* objects and AST
# `walkabout`). Each unit is a subclass with five overriding methods, a constructor called
# from a shared dispatch function, and a visitor double dispatch (`accept` -> `visit_K`).
n=${1:-10000}
units=$(( (n - 60) / 31 ))
cat <<'PY'
import os
from rpython.rlib.rarithmetic import intmask


class W_Root(object):
    def __init__(self, value):
        self.value = value

    def int_w(self):
        return 0

    def str_w(self):
        return ""

    def add(self, other):
        return W_Root(self.int_w() + other.int_w())

    def is_true(self):
        return False

    def accept(self, visitor):
        pass


class Visitor(object):
    def __init__(self):
        self.count = 0

PY
for ((i = 0; i < units; i++)); do
cat <<PY
class W_Obj$i(W_Root):
    def __init__(self, value):
        W_Root.__init__(self, value)
        self.extra = [value]

    def int_w(self):
        return self.value + $i

    def str_w(self):
        return "obj$i:%d" % self.value

    def add(self, other):
        self.extra.append(other.int_w())
        return W_Obj$i(self.value + other.int_w())

    def is_true(self):
        return self.value > $i

    def accept(self, visitor):
        visitor.visit_$i(self)


def Visitor_visit_$i(self, w_obj):
    self.count += w_obj.int_w() + len(w_obj.str_w())
Visitor.visit_$i = Visitor_visit_$i


def make$i(n):
    return W_Obj$i(n)


PY
done
echo "MAKERS = [$(for ((i = 0; i < units; i++)); do printf 'make%d, ' $i; done)]"
cat <<'PY'


def build(i, n):
    return MAKERS[i % len(MAKERS)](n)


def entry_point(argv):
    objs = []
    i = 0
    while i < len(MAKERS):
        objs.append(build(i, len(argv) + i))
        i += 1
    total = W_Root(0)
    visitor = Visitor()
    for w in objs:
        total = total.add(w)
        if w.is_true():
            w.accept(visitor)
        os.write(1, w.str_w() + "\n")
    os.write(1, str(intmask(total.int_w() + visitor.count)) + "\n")
    return 0


def target(*args):
    return entry_point, None
PY
