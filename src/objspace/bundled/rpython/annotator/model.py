"""rpy-lsp's model of `rpython.annotator.model`: the annotations an `ExtRegistryEntry`'s
annotator-level code builds and receives. rpy-lsp runs that code at annotation time on
these plain objects and maps them to and from its own annotations; what it cannot map
is unknown.
"""


class SomeObject(object):
    def is_constant(self):
        return hasattr(self, 'const')

    def can_be_none(self):
        return True

    def contains(self, other):
        return isinstance(other, self.__class__) and self._contains_same(other)

    def _contains_same(self, other):
        return True

    def getattr(self, s_attr):
        raise AttributeError(s_attr)


class SomeString(SomeObject):
    def __init__(self, can_be_None=False, no_nul=False):
        self.can_be_None = can_be_None
        self.no_nul = no_nul

    def _contains_same(self, other):
        return (self.can_be_None or not other.can_be_None) and (other.no_nul or not self.no_nul)


class SomeChar(SomeString):
    def __init__(self, no_nul=False):
        SomeString.__init__(self, False, no_nul)


class SomeUnicodeString(SomeObject):
    def __init__(self, can_be_None=False, no_nul=False):
        self.can_be_None = can_be_None
        self.no_nul = no_nul


class SomeFloat(SomeObject):
    pass


class SomeInteger(SomeObject):
    def __init__(self, nonneg=False, unsigned=None, knowntype=None):
        self.nonneg = nonneg
        self.unsigned = unsigned
        self.knowntype = knowntype

    def _contains_same(self, other):
        return other.nonneg or not self.nonneg


class SomeBool(SomeInteger):
    def __init__(self):
        SomeInteger.__init__(self, nonneg=True)


class SomeInstance(SomeObject):
    def __init__(self, classdef, can_be_None=False, flags={}):
        self.classdef = classdef
        self.can_be_None = can_be_None


class SomeList(SomeObject):
    def __init__(self, listdef):
        self.listdef = listdef


class SomeTuple(SomeObject):
    def __init__(self, items):
        self.items = tuple(items)


class SomeNone(SomeObject):
    pass


class SomePBC(SomeObject):
    pass


class SomeImpossibleValue(SomeObject):
    pass


s_None = SomeNone()
s_Bool = SomeBool()
s_Int = SomeInteger()
s_ImpossibleValue = SomeImpossibleValue()
