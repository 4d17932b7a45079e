"""rpy-lsp's model of `rpython.rlib.rstacklet`, written in RPython: one-shot
continuations. A `StackletThread` needs the translation option `continuation`
(`--continuation`), which the toolchain checks while annotating its constructor; the
check below runs at the same moment, on the config of the translation under way.

A handle is an opaque object here: `new(callback, arg)` calls `callback(handle, arg)` so
that the callback is annotated with the arguments the toolchain gives it, and returns
the handle the callback returned; `switch` returns a handle.
"""
from rpython.rlib.objectmodel import specialize
from rpython.translator.driver import translated_config


@specialize.memo()
def _require_continuation():
    config = translated_config()
    if config is not None:
        assert config.translation.continuation, (
            "stacklet: you have to translate with --continuation")
    return True


class _StackletHandle(object):
    pass


_empty_handle = _StackletHandle()


class StackletThread(object):

    def __init__(self, _argument_ignored_for_backward_compatibility=None):
        _require_continuation()
        self._last = _empty_handle

    @specialize.arg(1)
    def new(self, callback, arg=None):
        # The callback must return a handle (the toolchain calls it through a C function
        # pointer of that type): keeping it where handles go checks that.
        h = callback(_StackletHandle(), arg)
        self._last = h
        return h

    def switch(self, stacklet):
        return stacklet

    def is_empty_handle(self, stacklet):
        return stacklet is _empty_handle

    def get_null_handle(self):
        return _empty_handle
