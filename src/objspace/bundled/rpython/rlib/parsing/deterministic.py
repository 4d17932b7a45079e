"""`LexerError` and `DFA`. The lexers of this model match with the automaton of
`regex.py` (a Thompson NFA run as a set of states); `DFA` is the container that programs
with a pre-generated `recognize(runner, i)` function pass to `DummyLexer`: `names[state]`
is the token name of a final state."""


class LexerError(Exception):
    def __init__(self, input, state, source_pos):
        self.input = input
        self.state = state
        self.source_pos = source_pos
        self.args = (input, state, source_pos)

    def nice_error_message(self, filename="<unknown>"):
        where = self.source_pos
        # the position's line is counted from 0, the message's from 1
        header = "  File %s, line %s" % (filename, where.lineno + 1)
        line = self.input.split("\n")[where.lineno]
        caret = " " * where.columnno + "^"
        return "\n".join([header, line, caret, "LexerError"])

    def __str__(self):
        return self.nice_error_message()


class DFA(object):
    def __init__(self, num_states=0, transitions=None, final_states=None,
                 unmergeable_states=None, names=None):
        if transitions is None:
            transitions = {}
        if final_states is None:
            final_states = {}
        if unmergeable_states is None:
            unmergeable_states = {}
        if names is None:
            names = []
        self.num_states = num_states
        self.transitions = transitions
        self.final_states = final_states
        self.unmergeable_states = unmergeable_states
        self.names = names

    def __getitem__(self, key):
        return self.transitions[key]

    def __contains__(self, key):
        return key in self.transitions

    def optimize(self):
        pass


class DFARunner(object):
    """Recognizes whole strings with a DFA's transition table."""

    def __init__(self, automaton):
        self.automaton = automaton
        self.state = 0

    def recognize(self, s):
        state = 0
        for char in s:
            key = (state, char)
            if key not in self.automaton.transitions:
                return False
            state = self.automaton.transitions[key]
        self.state = state
        return state in self.automaton.final_states
