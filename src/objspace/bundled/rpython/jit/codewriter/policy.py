"""rpy-lsp's model of `rpython.jit.codewriter.policy`: the policy a target's
`jitpolicy(driver)` returns (used only when translating with the JIT)."""


class JitPolicy(object):
    def __init__(self, jithookiface=None):
        self.jithookiface = jithookiface
        self.unsafe_loopy_graphs = set()

    def set_supports_floats(self, flag):
        self.supports_floats = flag

    def set_supports_longlong(self, flag):
        self.supports_longlong = flag

    def set_supports_singlefloats(self, flag):
        self.supports_singlefloats = flag

    def look_inside_graph(self, graph):
        return True

    def look_inside_function(self, func):
        return True
