"""Parse trees (`Symbol` leaves, `Nonterminal` inner nodes) and `RPythonVisitor`, whose
`dispatch` picks the `visit_<symbol>` method of the class by the node's symbol."""


from rpython.rlib.parsing import _unknown


class Node(object):
    def view(self):
        # Needs a graph viewer: nothing to show in a translated program.
        pass


class Symbol(Node):
    """A token matched by the parser: `symbol` is the grammar's name for it,
    `additional_info` the matched text and `token` the lexer's token."""

    def __init__(self, symbol, additional_info, token):
        self.symbol = symbol
        self.additional_info = additional_info
        self.token = token

    def getsourcepos(self):
        return self.token.source_pos

    def __repr__(self):
        return "Symbol(%r, %r)" % (self.symbol, self.additional_info)


class Nonterminal(Node):
    """A rule matched by the parser, with the nodes of its expansion."""

    def __init__(self, symbol, children):
        self.children = children
        self.symbol = symbol

    def getsourcepos(self):
        return self.children[0].getsourcepos()

    def __str__(self):
        parts = []
        for child in self.children:
            parts.append(str(child))
        return "%s(%s)" % (self.symbol, ", ".join(parts))

    def __repr__(self):
        return "Nonterminal(%r, %r)" % (self.symbol, self.children)


class VisitError(Exception):
    def __init__(self, node):
        self.node = node
        self.args = (node,)

    def __str__(self):
        return "could not visit %s" % (self.node,)


def _make_dispatch(table, on_nonterminal, on_symbol, on_any):
    # `table` maps a symbol to the plain function of its `visit_` method; the three
    # fallbacks are functions or None (constants of the closure, so the branches on them
    # fold away when translated).
    def dispatch(self, node):
        if not _unknown.known_object(node):
            return node
        if isinstance(node, Nonterminal):
            func = table.get(node.symbol, None)
            if func is not None:
                return func(self, node)
            if on_nonterminal is not None:
                return on_nonterminal(self, node)
        elif isinstance(node, Symbol):
            func = table.get(node.symbol, None)
            if func is not None:
                return func(self, node)
            if on_symbol is not None:
                return on_symbol(self, node)
        if on_any is not None:
            return on_any(self, node)
        raise VisitError(node)
    return dispatch


class _VisitorMeta(type):
    """Gives each visitor class a `dispatch` built from the `visit_` methods its own body
    defines (inherited ones are not in the table, as in the reference)."""

    def __new__(mcs, name, bases, dct):
        table = {}
        for key in dct:
            if key.startswith("visit_"):
                table[key[len("visit_"):]] = dct[key]
        dct["dispatch"] = _make_dispatch(table,
                                         dct.get("general_nonterminal_visit", None),
                                         dct.get("general_symbol_visit", None),
                                         dct.get("general_visit", None))
        return type.__new__(mcs, name, bases, dct)


class RPythonVisitor(object):
    __metaclass__ = _VisitorMeta
