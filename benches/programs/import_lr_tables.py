# Import-time cost of a parser generator (benches/check_real.sh's rply note): the module
# builds SLR parse tables for a generated expression grammar while it is imported, the way
# rply-based interpreters build theirs, and the translated program only reads the tables.
# The work is what such generators do in plain Python: LR(0) items as tuples, `in` over
# lists of tuples, item sets hashed as tuples of tuples in a dict, FIRST and FOLLOW sets
# grown as lists, attribute reads on small grammar objects.
#
#   rpy-lsp check benches/programs/import_lr_tables.py   (0 errors)
#
# LEVELS sets the size: 60 precedence levels give 65 nonterminals, 154 productions
# and 255 states (CPython 2.7 builds the tables in about half a second of CPU).

LEVELS = 60


class Production(object):
    def __init__(self, number, name, symbols):
        self.number = number
        self.name = name
        self.symbols = symbols
        self.length = len(symbols)


class Grammar(object):
    def __init__(self):
        self.productions = []
        self.nonterminals = []
        self.terminals = []
        self.by_name = {}

    def add(self, name, symbols):
        p = Production(len(self.productions), name, symbols)
        self.productions.append(p)
        if name not in self.nonterminals:
            self.nonterminals.append(name)
        self.by_name.setdefault(name, []).append(p)

    def finish(self):
        for p in self.productions:
            for s in p.symbols:
                if s not in self.nonterminals and s not in self.terminals:
                    self.terminals.append(s)
        self.terminals.append("$end")


def make_grammar(levels):
    g = Grammar()
    g.add("start", ["stmts"])
    g.add("stmts", ["stmts", "stmt"])
    g.add("stmts", ["stmt"])
    g.add("stmt", ["NAME", "=", "e0", ";"])
    g.add("stmt", ["print", "args", ";"])
    g.add("stmt", ["if", "e0", "{", "stmts", "}"])
    g.add("stmt", ["while", "e0", "{", "stmts", "}"])
    g.add("args", ["args", ",", "e0"])
    g.add("args", ["e0"])
    for i in range(levels):
        here = "e%d" % i
        below = "e%d" % (i + 1)
        op = "op%d" % i
        g.add(here, [here, op, below])
        if i % 3 == 0:
            g.add(here, ["neg%d" % i, below])
        g.add(here, [below])
    last = "e%d" % levels
    g.add(last, ["NUMBER"])
    g.add(last, ["NAME"])
    g.add(last, ["(", "e0", ")"])
    g.add(last, [last, "(", "args", ")"])
    g.add(last, [last, "[", "e0", "]"])
    g.finish()
    return g


def closure(g, items):
    result = list(items)
    changed = True
    while changed:
        changed = False
        for (number, dot) in result:
            p = g.productions[number]
            if dot < p.length:
                sym = p.symbols[dot]
                for q in g.by_name.get(sym, []):
                    item = (q.number, 0)
                    if item not in result:
                        result.append(item)
                        changed = True
    return result


def goto(g, items, sym):
    moved = []
    for (number, dot) in items:
        p = g.productions[number]
        if dot < p.length and p.symbols[dot] == sym:
            moved.append((number, dot + 1))
    if not moved:
        return None
    return closure(g, moved)


def symbols_after_dot(g, items):
    syms = []
    for (number, dot) in items:
        p = g.productions[number]
        if dot < p.length and p.symbols[dot] not in syms:
            syms.append(p.symbols[dot])
    return syms


def canonical_collection(g):
    states = [closure(g, [(0, 0)])]
    index = {tuple(states[0]): 0}
    transitions = []
    i = 0
    while i < len(states):
        for sym in symbols_after_dot(g, states[i]):
            target = goto(g, states[i], sym)
            key = tuple(target)
            j = index.get(key, -1)
            if j < 0:
                j = len(states)
                states.append(target)
                index[key] = j
            if (i, sym, j) not in transitions:
                transitions.append((i, sym, j))
        i += 1
    return states, transitions


def first_sets(g):
    first = {}
    for t in g.terminals:
        first[t] = [t]
    for n in g.nonterminals:
        first[n] = []
    changed = True
    while changed:
        changed = False
        for p in g.productions:
            for a in first[p.symbols[0]]:
                if a not in first[p.name]:
                    first[p.name].append(a)
                    changed = True
    return first


def follow_sets(g, first):
    follow = {}
    for n in g.nonterminals:
        follow[n] = []
    follow["start"].append("$end")
    changed = True
    while changed:
        changed = False
        for p in g.productions:
            for k in range(p.length):
                s = p.symbols[k]
                if s not in g.nonterminals:
                    continue
                if k + 1 < p.length:
                    new = first[p.symbols[k + 1]]
                else:
                    new = follow[p.name]
                for a in new:
                    if a not in follow[s]:
                        follow[s].append(a)
                        changed = True
    return follow


def build_tables(g):
    states, transitions = canonical_collection(g)
    follow = follow_sets(g, first_sets(g))
    action = []
    for i in range(len(states)):
        action.append({})
    nonterminal_edges = []
    for (i, sym, j) in transitions:
        if sym in g.terminals:
            action[i][sym] = j
        elif (i, sym) not in nonterminal_edges:
            nonterminal_edges.append((i, sym))
    for i in range(len(states)):
        for (number, dot) in states[i]:
            p = g.productions[number]
            if dot == p.length:
                for a in follow[p.name]:
                    if a not in action[i]:
                        action[i][a] = -1 - number
    return len(states), action, len(nonterminal_edges)


GRAMMAR = make_grammar(LEVELS)
NSTATES, ACTION, NEDGES = build_tables(GRAMMAR)


def entry_point(argv):
    state = 0
    if len(argv) > 1:
        state = len(argv[1]) % NSTATES
    print "%d states, %d nonterminal edges, %d actions in state %d" % (
        NSTATES, NEDGES, len(ACTION[state]), state)
    return 0


def target(*args):
    return entry_point, None
