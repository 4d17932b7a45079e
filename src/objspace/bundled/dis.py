"""rpy-lsp's model of CPython 2.7's `dis` module: the opcode tables it takes from `opcode`
(`HAVE_ARGUMENT`, `opmap`, `opname`, ...). Its disassembler is not modelled (a name this
model lacks is unknown)."""
from opcode import *
from opcode import __all__ as _opcodes_all

__all__ = ["dis", "disassemble", "distb", "disco", "findlinestarts", "findlabels"] + _opcodes_all
