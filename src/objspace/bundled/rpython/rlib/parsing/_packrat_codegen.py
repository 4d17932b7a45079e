"""Turns the productions read by `_packrat_grammar` into the Python source of a parser
class. The parser a user observes is fixed by makepackrat's behaviour: each production
`p` becomes `p(self, args)`, giving `self._p(args).result`, and the memoising `_p`,
which keeps one `Status` per position (and arguments) in `self._dict_p`, grows a left
recursive production's result until it stops advancing, and leaves its value in the one
`Status.result` attribute that all productions share (what the annotator unifies). The
operations the annotator sees follow from that: `*` and `+` collect lists, regexes and
quotes give strings, a production starts from `None`, and an error is an
`ErrorInformation` or `None` merged by `_combine_errors`.

Code is produced in two steps: `_Production` turns a grammar node into a list of
statements, where a statement is a line of text or a `(header, statements)` pair for a
compound statement; `_render` indents that tree into source lines."""


def _render(statements, depth, out):
    for statement in statements:
        if isinstance(statement, tuple):
            header, inner = statement
            out.append("    " * depth + header)
            _render(inner or ["pass"], depth + 1, out)
        else:
            out.append("    " * depth + statement)


def _mentions(node, kinds):
    """Whether node, or a node inside it, is of one of the given kinds."""
    if node[0] in kinds:
        return True
    for part in node[1:]:
        if isinstance(part, tuple) and _mentions(part, kinds):
            return True
        if isinstance(part, list):
            for item in part:
                if isinstance(item, tuple) and _mentions(item, kinds):
                    return True
    return False


_CATCH = "except BacktrackException, _bt:"


class _Production(object):
    """The statements of one production's memoising method."""

    def __init__(self, name, params, body, regex_index):
        self.name = name
        self.params = params
        self.body = body
        self.regex_index = regex_index
        self.counter = 0
        # makepackrat's error bookkeeping: the first place (in source order) that
        # records an error overwrites `_err`, every later one merges into it.
        self.err_bound = False
        # Memo states only a production that calls others can meet.
        self.recursive = _mentions(body, ("call",))
        # A production with a <...> part answers the value of its last one.
        if _mentions(body, ("exclusive",)):
            self.answer = "_kept"
        else:
            self.answer = "_result"

    def fresh(self, stem):
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    def record_error(self, expr):
        if self.err_bound:
            return "_err = self._combine_errors(_err, %s)" % (expr,)
        self.err_bound = True
        return "_err = %s" % (expr,)

    # ---- the method

    def method(self):
        name, params = self.name, self.params
        signature = ", ".join(["self"] + params)
        rest = ", ".join(params)
        stmts = self.gen(self.body)
        if self.recursive:
            stmts.append(("if _memo.status == _memo.LEFTRECURSION:", [
                ("if _memo.result is not None and _memo.pos >= self._pos:", [
                    "_memo.status = _memo.NORMAL",
                    "self._pos = _memo.pos",
                    "return _memo"]),
                # a longer match than last round: keep it and try to grow it again
                "_memo.pos = self._pos",
                "_memo.status = _memo.SOMESOLUTIONS",
                "_memo.result = %s" % (self.answer,),
                "_memo.error = _err",
                "self._pos = _start",
                "return self._%s(%s)" % (name, rest)]))
        else:
            stmts.append("assert _memo.status != _memo.LEFTRECURSION")
        stmts += ["_memo.status = _memo.NORMAL",
                  "_memo.pos = self._pos",
                  "_memo.result = %s" % (self.answer,),
                  "_memo.error = _err",
                  "return _memo"]
        failed = ["_memo.pos = -1",
                  "_memo.result = None",
                  self.record_error("_bt.error"),
                  "_memo.error = _err",
                  "_memo.status = _memo.ERROR",
                  "raise BacktrackException(_err)"]
        return [
            ("def %s(%s):" % (name, signature), [
                "return self._%s(%s).result" % (name, rest)]),
            ("def _%s(%s):" % (name, signature),
             self.lookup() + ["_start = self._pos",
                              "_result = None",
                              "_err = None",
                              ("try:", stmts),
                              (_CATCH, failed)])]

    def lookup(self):
        table = "self._dict_%s" % (self.name,)
        if self.params:
            key = "(self._pos, %s)" % (", ".join(self.params),)
        else:
            key = "self._pos"
        seen = [("if _state == _memo.NORMAL:", ["self._pos = _memo.pos", "return _memo"]),
                ("elif _state == _memo.ERROR:", ["raise BacktrackException(_memo.error)"])]
        if self.recursive:
            # met again while being computed: a left recursion; it fails the first
            # time round, then answers the best result found so far
            seen.append(("elif _state == _memo.INPROGRESS or _state == _memo.LEFTRECURSION:", [
                "_memo.status = _memo.LEFTRECURSION",
                ("if _memo.result is None:", ["raise BacktrackException(None)"]),
                "self._pos = _memo.pos",
                "return _memo"]))
            seen.append(("elif _state == _memo.SOMESOLUTIONS:",
                         ["_memo.status = _memo.INPROGRESS"]))
        return ["_k = %s" % (key,),
                "_memo = %s.get(_k, None)" % (table,),
                ("if _memo is None:", ["_memo = Status()", "%s[_k] = _memo" % (table,)]),
                ("else:", ["_state = _memo.status"] + seen)]

    # ---- grammar nodes

    def gen(self, node):
        return getattr(self, "gen_" + node[0])(node)

    def gen_commands(self, node):
        out = []
        for command in node[1]:
            out += self.gen(command)
        return out

    def gen_or(self, node):
        mark = self.fresh("_p")
        tries = []
        for alternative in node[1]:
            tries.append(("try:", self.gen(alternative) + ["break"]))
            tries.append((_CATCH, [self.record_error("_bt.error"),
                                   "self._pos = %s" % (mark,)]))
        tries.append("raise BacktrackException(_err)")
        return ["%s = self._pos" % (mark,), ("while 1:", tries)]

    def gen_maybe(self, node):
        mark = self.fresh("_p")
        return ["%s = self._pos" % (mark,),
                ("try:", self.gen(node[1])),
                ("except BacktrackException:", ["self._pos = %s" % (mark,)])]

    def gen_repetition(self, node):
        items = self.fresh("_items")
        out = ["%s = []" % (items,)]
        if node[1] == "+":
            # the first item is required: outside the loop, its failure is the node's
            out += self.gen(node[2]) + ["%s.append(_result)" % (items,)]
        mark = self.fresh("_p")
        out.append(("while 1:", [
            "%s = self._pos" % (mark,),
            ("try:", self.gen(node[2]) + ["%s.append(_result)" % (items,)]),
            (_CATCH, [self.record_error("_bt.error"),
                      "self._pos = %s" % (mark,),
                      "break"])]))
        out.append("_result = %s" % (items,))
        return out

    def gen_exclusive(self, node):
        return self.gen(node[1]) + ["_kept = _result"]

    def gen_ignore(self, node):
        saved = self.fresh("_r")
        return ["%s = _result" % (saved,)] + self.gen(node[1]) + ["_result = %s" % (saved,)]

    def gen_negation(self, node):
        inner = node[1]
        mark = self.fresh("_p")
        saved = self.fresh("_r")
        if inner[0] == "quote":
            # the one negation that can say what it did not want
            error = "self._ErrorInformation(%s, [%s])" % (mark, "'NOT " + inner[1] + "'")
        else:
            error = "None"
        return ["%s = self._pos" % (mark,),
                "%s = _result" % (saved,),
                ("try:", self.gen(inner)),
                ("except BacktrackException:", ["self._pos = %s" % (mark,),
                                                "_result = %s" % (saved,)]),
                ("else:", ["raise BacktrackException(%s)" % (error,)])]

    def gen_lookahead(self, node):
        mark = self.fresh("_p")
        saved = self.fresh("_r")
        return (["%s = _result" % (saved,), "%s = self._pos" % (mark,)] +
                self.gen(node[1]) +
                ["self._pos = %s" % (mark,), "_result = %s" % (saved,)])

    def gen_named(self, node):
        return self.gen(node[2]) + ["%s = _result" % (node[1],)]

    def gen_return(self, node):
        return ["_result = (%s)" % (node[1],)]

    def gen_if(self, node):
        out = []
        if node[1] is not None:
            out = self.gen(node[1])
        unmet = "self._ErrorInformation(_start, ['condition not met'])"
        out.append(("if not (%s):" % (node[2],), ["raise BacktrackException(%s)" % (unmet,)]))
        return out

    def gen_choose(self, node):
        # no position is restored between candidates: makepackrat does not either
        return [("for %s in (%s):" % (node[1], node[2]), [
                    ("try:", self.gen(node[3]) + ["break"]),
                    (_CATCH, [self.record_error("_bt.error")])]),
                ("else:", ["raise BacktrackException(_err)"])]

    def gen_call(self, node):
        target, args = node[1], node[2]
        actual = ", ".join(["(%s)" % (arg,) for arg in args])
        if target.startswith("_"):
            # a helper method (__any__, __chars__, ...) answers its value directly
            return ["_result = self.%s(%s)" % (target, actual)]
        return ["_sub = self._%s(%s)" % (target, actual),
                "_result = _sub.result",
                self.record_error("_sub.error")]

    def gen_regex(self, node):
        return ["_result = self._match_regex(%d)" % (self.regex_index(node[1]),)]

    def gen_quote(self, node):
        return ["_result = self.__chars__(%r)" % (str(node[1]),)]


class ParserBuilder(object):
    """`build(productions, classname)` gives the source of the class; `regexes` then
    lists the regex texts, the n-th matched by `_match_regex(n)`."""

    def __init__(self):
        self.regexes = []

    def regex_index(self, text):
        if text not in self.regexes:
            self.regexes.append(text)
        return self.regexes.index(text)

    def build(self, productions, classname):
        members = []
        tables = []
        defined = {}
        for name, params, body in productions:
            if name in defined:
                raise Exception("name %s appears twice" % (name,))
            defined[name] = True
            tables.append("self._dict_%s = {}" % (name,))
            members += _Production(name, params, body, self.regex_index).method()
        members.append(("def __init__(self, inputstream):",
                        tables + ["self._pos = 0", "self._inputstream = inputstream"]))
        out = []
        _render([("class %s(object):" % (classname,), members)], 0, out)
        return "\n".join(out) + "\n"
