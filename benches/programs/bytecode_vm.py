# Benchmark: an interpreter loop. A small register-and-stack bytecode VM
# (Frame objects, operand stack list, opcode dispatch by if/elif) runs a
# program counting primes below N by trial division, and a recursive
# fib(k) through CALL/RET; argv[1] is N (default 60000), fib(24) fixed.

PUSH = 0
LOAD = 1
STORE = 2
ADD = 3
SUB = 4
MUL = 5
MOD = 6
LT = 7
JIF = 8
JMP = 9
CALL = 10
RET = 11
EQ = 12
DUP = 13


class Code(object):
    def __init__(self, nargs, nlocals, ops):
        self.nargs = nargs
        self.nlocals = nlocals
        self.ops = ops


class Frame(object):
    def __init__(self, code):
        self.code = code
        self.locals = [0] * code.nlocals
        self.stack = [0] * 16
        self.sp = 0

    def push(self, v):
        self.stack[self.sp] = v
        self.sp += 1

    def pop(self):
        self.sp -= 1
        return self.stack[self.sp]


class VM(object):
    def __init__(self):
        self.codes = []
        self.steps = 0

    def run(self, code, frame):
        ops = code.ops
        pc = 0
        steps = 0
        while True:
            op = ops[pc]
            arg = ops[pc + 1]
            pc += 2
            steps += 1
            if op == PUSH:
                frame.push(arg)
            elif op == LOAD:
                frame.push(frame.locals[arg])
            elif op == STORE:
                frame.locals[arg] = frame.pop()
            elif op == ADD:
                b = frame.pop()
                frame.push(frame.pop() + b)
            elif op == SUB:
                b = frame.pop()
                frame.push(frame.pop() - b)
            elif op == MUL:
                b = frame.pop()
                frame.push(frame.pop() * b)
            elif op == MOD:
                b = frame.pop()
                frame.push(frame.pop() % b)
            elif op == LT:
                b = frame.pop()
                a = frame.pop()
                frame.push(1 if a < b else 0)
            elif op == EQ:
                b = frame.pop()
                a = frame.pop()
                frame.push(1 if a == b else 0)
            elif op == JIF:
                if frame.pop() == 0:
                    pc = arg
            elif op == JMP:
                pc = arg
            elif op == DUP:
                v = frame.pop()
                frame.push(v)
                frame.push(v)
            elif op == CALL:
                callee = self.codes[arg]
                f = Frame(callee)
                i = callee.nargs - 1
                while i >= 0:
                    f.locals[i] = frame.pop()
                    i -= 1
                frame.push(self.run(callee, f))
            elif op == RET:
                self.steps += steps
                return frame.pop()
            else:
                raise ValueError


def assemble(src):
    # "OP arg" pairs separated by ';', labels "name:" resolved in two passes
    names = {"push": PUSH, "load": LOAD, "store": STORE, "add": ADD,
             "sub": SUB, "mul": MUL, "mod": MOD, "lt": LT, "jif": JIF,
             "jmp": JMP, "call": CALL, "ret": RET, "eq": EQ, "dup": DUP}
    labels = {}
    items = []
    for part in src.split(";"):
        part = part.strip()
        if not part:
            continue
        colon = part.find(":")
        if colon >= 0:
            labels[part[:colon]] = len(items) * 2
            part = part[colon + 1:].strip()
        items.append(part)
    ops = []
    for item in items:
        words = item.split(" ")
        ops.append(names[words[0]])
        if len(words) > 1:
            a = words[1]
            if a in labels:
                ops.append(labels[a])
            else:
                ops.append(int(a))
        else:
            ops.append(0)
    return ops

# locals of primes: 0 = n, 1 = i, 2 = d, 3 = count, 4 = is_prime
PRIMES = """
push 0; store 3; push 2; store 1;
outer: load 1; load 0; lt; jif done;
push 1; store 4; push 2; store 2;
inner: load 2; load 2; mul; load 1; push 1; add; lt; jif endinner;
load 1; load 2; mod; push 0; eq; jif next;
push 0; store 4; jmp endinner;
next: load 2; push 1; add; store 2; jmp inner;
endinner: load 3; load 4; add; store 3;
load 1; push 1; add; store 1; jmp outer;
done: load 3; ret
"""

FIB = """
load 0; push 2; lt; jif rec; load 0; ret;
rec: load 0; push 1; sub; call 1; load 0; push 2; sub; call 1; add; ret
"""


def entry_point(argv):
    n = 60000
    if len(argv) > 1:
        n = int(argv[1])
    vm = VM()
    primes = Code(1, 5, assemble(PRIMES))
    fib = Code(1, 1, assemble(FIB))
    vm.codes = [primes, fib]
    f = Frame(primes)
    f.locals[0] = n
    print "primes below %d: %d" % (n, vm.run(primes, f))
    g = Frame(fib)
    g.locals[0] = 24
    print "fib(24): %d" % vm.run(fib, g)
    print "steps: %d" % vm.steps
    return 0


def target(*args):
    return entry_point, None
