"""rpy-lsp's model of the `types` module: the types of the built-in objects, for
code that runs at import time."""
import sys


def _f():
    pass


def _g():
    yield 1


class _C(object):
    def _m(self):
        pass


NoneType = type(None)
TypeType = type
ObjectType = object
IntType = int
LongType = long
FloatType = float
BooleanType = bool
StringType = str
UnicodeType = unicode
StringTypes = (str, unicode)
TupleType = tuple
ListType = list
DictType = DictionaryType = dict
FunctionType = LambdaType = type(_f)
CodeType = type(_f.__code__)
GeneratorType = type(_g())
ClassType = type
InstanceType = object
MethodType = UnboundMethodType = type(_C()._m)
BuiltinFunctionType = BuiltinMethodType = type(len)
ModuleType = type(sys)
FileType = file
XRangeType = xrange
SliceType = slice
EllipsisType = type(Ellipsis)
NotImplementedType = type(NotImplemented)

del _f, _g, _C
