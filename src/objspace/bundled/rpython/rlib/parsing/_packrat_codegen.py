"""Writes the Python source of a makepackrat parser class from its productions (see
`_packrat_grammar`), statement for statement what rpython 0.2.1's generator writes, so
that the annotator sees the same operations: every production `p` gets `p(self, args)`
returning `self._p(args).result` and `_p(self, args)`, which memoises a `Status` per
position (and arguments) in `self._dict_p`, handles left recursion when the production
calls others, and stores its result in `Status.result`. Regexes become `_regex<n>`
methods matching with the parser's automaton number n."""


class ParserBuilder(object):
    def __init__(self):
        self.lines = []
        self.indent = 0
        self.initcode = []
        self.names = {}
        self.regexes = []
        self.namecount = 0
        self.resultname = "_result"
        self.have_call = False
        self.created_error = False

    def emit(self, line):
        for part in line.split("\n"):
            self.lines.append("    " * self.indent + part)

    def open(self, line):
        self.emit(line)
        self.indent += 1

    def close(self):
        self.indent -= 1

    def choice_point(self):
        var = "_choice%s" % (self.namecount, )
        self.namecount += 1
        self.emit("%s = self._pos" % (var, ))
        return var

    def revert(self, var):
        self.emit("self._pos = %s" % (var, ))

    def combine_error(self, newerror):
        if self.created_error:
            self.emit("_error = self._combine_errors(_error, %s)" % (newerror, ))
        else:
            self.emit("_error = %s" % (newerror, ))
            self.created_error = True

    def build(self, productions, classname):
        self.open("class %s(object):" % (classname, ))
        for production in productions:
            self.production(production)
        self.open("def __init__(self, inputstream):")
        for line in self.initcode:
            self.emit(line)
        self.emit("self._pos = 0")
        self.emit("self._inputstream = inputstream")
        self.close()
        for index in range(len(self.regexes)):
            self.regex_method(index)
        self.close()
        return "\n".join(self.lines) + "\n"

    def regex_method(self, index):
        self.open("def _regex%d(self):" % (index, ))
        choice = self.choice_point()
        self.emit("_upto = self._regex_end(%d)" % (index, ))
        self.open("if _upto < 0:")
        self.revert(choice)
        self.emit("raise BacktrackException")
        self.close()
        self.emit("_pos = self._pos")
        self.emit("assert _pos >= 0")
        self.emit("assert _upto >= 0")
        self.emit("_result = self._inputstream[_pos: _upto]")
        self.emit("self._pos = _upto")
        self.emit("return _result")
        self.close()

    # ---- productions

    def production(self, production):
        name, args, body = production
        if name in self.names:
            raise Exception("name %s appears twice" % (name, ))
        self.names[name] = True
        withself = ", ".join(["self"] + args)
        withoutself = ", ".join(args)
        self.open("def %s(%s):" % (name, withself))
        self.emit("return self._%s(%s).result" % (name, withoutself))
        self.close()
        self.open("def _%s(%s):" % (name, withself))
        self.namecount = 0
        self.resultname = "_result"
        self.have_call = False
        self.created_error = False
        # The body is written first (it decides whether there are calls), then put
        # between the memoising header and footer.
        outer_lines, outer_indent = self.lines, self.indent
        self.lines = []
        self.indent = outer_indent + 1
        self.dispatch(body)
        body_lines = self.lines
        self.lines, self.indent = outer_lines, outer_indent
        self.memoize_header(name, args)
        self.lines.extend(body_lines)
        self.memoize_footer(name, args)
        self.close()

    def memoize_header(self, name, args):
        dictname = "_dict_%s" % (name, )
        self.initcode.append("self.%s = {}" % (dictname, ))
        if args:
            self.emit("_key = (self._pos, %s)" % (", ".join(args)))
        else:
            self.emit("_key = self._pos")
        self.emit("_status = self.%s.get(_key, None)" % (dictname, ))
        self.open("if _status is None:")
        self.emit("_status = self.%s[_key] = Status()" % (dictname, ))
        self.close()
        self.open("else:")
        self.emit("_statusstatus = _status.status")
        self.open("if _statusstatus == _status.NORMAL:")
        self.emit("self._pos = _status.pos")
        self.emit("return _status")
        self.close()
        self.open("elif _statusstatus == _status.ERROR:")
        self.emit("raise BacktrackException(_status.error)")
        self.close()
        if self.have_call:
            self.open("elif (_statusstatus == _status.INPROGRESS or\n"
                      "      _statusstatus == _status.LEFTRECURSION):")
            self.emit("_status.status = _status.LEFTRECURSION")
            self.open("if _status.result is not None:")
            self.emit("self._pos = _status.pos")
            self.emit("return _status")
            self.close()
            self.open("else:")
            self.emit("raise BacktrackException(None)")
            self.close()
            self.close()
            self.open("elif _statusstatus == _status.SOMESOLUTIONS:")
            self.emit("_status.status = _status.INPROGRESS")
            self.close()
        self.close()
        self.emit("_startingpos = self._pos")
        self.open("try:")
        self.emit("_result = None")
        self.emit("_error = None")

    def memoize_footer(self, name, args):
        if self.have_call:
            self.open("if _status.status == _status.LEFTRECURSION:")
            self.open("if _status.result is not None:")
            self.open("if _status.pos >= self._pos:")
            self.emit("_status.status = _status.NORMAL")
            self.emit("self._pos = _status.pos")
            self.emit("return _status")
            self.close()
            self.close()
            self.emit("_status.pos = self._pos")
            self.emit("_status.status = _status.SOMESOLUTIONS")
            self.emit("_status.result = %s" % (self.resultname, ))
            self.emit("_status.error = _error")
            self.emit("self._pos = _startingpos")
            self.emit("return self._%s(%s)" % (name, ", ".join(args)))
            self.close()
        else:
            self.emit("assert _status.status != _status.LEFTRECURSION")
        self.emit("_status.status = _status.NORMAL")
        self.emit("_status.pos = self._pos")
        self.emit("_status.result = %s" % (self.resultname, ))
        self.emit("_status.error = _error")
        self.emit("return _status")
        self.close()
        self.open("except BacktrackException, _exc:")
        self.emit("_status.pos = -1")
        self.emit("_status.result = None")
        self.combine_error("_exc.error")
        self.emit("_status.error = _error")
        self.emit("_status.status = _status.ERROR")
        self.emit("raise BacktrackException(_error)")
        self.close()

    # ---- commands

    def dispatch(self, node):
        getattr(self, "visit_" + node[0])(node)

    def visit_or(self, node):
        alternatives = node[1]
        self.open("while 1:")
        for i in range(len(alternatives)):
            choice = self.choice_point()
            self.open("try:")
            self.dispatch(alternatives[i])
            self.emit("break")
            self.close()
            self.open("except BacktrackException, _exc:")
            self.combine_error("_exc.error")
            self.revert(choice)
            if i == len(alternatives) - 1:
                self.emit("raise BacktrackException(_error)")
            self.close()
        self.dispatch(alternatives[-1])
        self.emit("break")
        self.close()

    def visit_commands(self, node):
        for command in node[1]:
            self.dispatch(command)

    def visit_maybe(self, node):
        choice = self.choice_point()
        self.open("try:")
        self.dispatch(node[1])
        self.close()
        self.open("except BacktrackException:")
        self.revert(choice)
        self.close()

    def visit_repetition(self, node):
        name = "_all%s" % (self.namecount, )
        self.namecount += 1
        self.emit("%s = []" % (name, ))
        if node[1] == "+":
            self.dispatch(node[2])
            self.emit("%s.append(_result)" % (name, ))
        self.open("while 1:")
        choice = self.choice_point()
        self.open("try:")
        self.dispatch(node[2])
        self.emit("%s.append(_result)" % (name, ))
        self.close()
        self.open("except BacktrackException, _exc:")
        self.combine_error("_exc.error")
        self.revert(choice)
        self.emit("break")
        self.close()
        self.close()
        self.emit("_result = %s" % (name, ))

    def visit_exclusive(self, node):
        self.resultname = "_enclosed"
        self.dispatch(node[1])
        self.emit("_enclosed = _result")

    def visit_ignore(self, node):
        saved = "_before_discard%i" % (self.namecount, )
        self.namecount += 1
        self.emit("%s = _result" % (saved, ))
        self.dispatch(node[1])
        self.emit("_result = %s" % (saved, ))

    def visit_negation(self, node):
        choice = self.choice_point()
        saved = "_stored_result%i" % (self.namecount, )
        self.namecount += 1
        child = node[1]
        self.emit("%s = _result" % (saved, ))
        self.open("try:")
        self.dispatch(child)
        self.close()
        self.open("except BacktrackException:")
        self.revert(choice)
        self.emit("_result = %s" % (saved, ))
        self.close()
        self.open("else:")
        # a negated literal says what it did not expect
        if child[0] == "quote":
            error = "self._ErrorInformation(%s, ['NOT %s'])" % (choice, child[1])
        else:
            error = "None"
        self.emit("raise BacktrackException(%s)" % (error, ))
        self.close()

    def visit_lookahead(self, node):
        saved = "_stored_result%i" % (self.namecount, )
        self.emit("%s = _result" % (saved, ))
        choice = self.choice_point()
        self.dispatch(node[1])
        self.revert(choice)
        self.emit("_result = %s" % (saved, ))

    def visit_named(self, node):
        self.dispatch(node[2])
        self.emit("%s = _result" % (node[1], ))

    def visit_return(self, node):
        self.emit("_result = (%s)" % (node[1], ))

    def visit_if(self, node):
        if node[1] is not None:
            self.dispatch(node[1])
        self.open("if not (%s):" % (node[2], ))
        self.emit("raise BacktrackException(")
        self.emit("    self._ErrorInformation(")
        self.emit("         _startingpos, ['condition not met']))")
        self.close()

    def visit_choose(self, node):
        self.open("for %s in (%s):" % (node[1], node[2]))
        self.open("try:")
        self.dispatch(node[3])
        self.emit("break")
        self.close()
        self.open("except BacktrackException, _exc:")
        self.combine_error("_exc.error")
        self.close()
        self.close()
        self.open("else:")
        self.emit("raise BacktrackException(_error)")
        self.close()

    def visit_call(self, node):
        self.have_call = True
        args = ", ".join(["(%s)" % (arg, ) for arg in node[2]])
        if node[1].startswith("_"):
            self.emit("_result = self.%s(%s)" % (node[1], args))
        else:
            self.emit("_call_status = self._%s(%s)" % (node[1], args))
            self.emit("_result = _call_status.result")
            self.combine_error("_call_status.error")

    def visit_regex(self, node):
        text = node[1]
        if text in self.regexes:
            index = self.regexes.index(text)
        else:
            index = len(self.regexes)
            self.regexes.append(text)
        self.emit("_result = self._regex%d()" % (index, ))

    def visit_quote(self, node):
        self.emit("_result = self.__chars__(%r)" % (str(node[1]), ))
