"""Model of rpython.tool.sourcetools: the import-time helpers RPython programs take from it
to make renamed copies of functions (PyPy generates its binary-operation methods that way).
Names not defined here stay unknown."""

from __rpy__ import objectmodel_func_with_new_name

# A copy of a function sharing its code, under a new name (rpython.rlib.objectmodel
# re-exports the same function).
func_with_new_name = objectmodel_func_with_new_name


def func_renamer(newname):
    """A decorator: the decorated function is renamed to `newname`."""
    def decorate(func):
        return func_with_new_name(func, newname)
    return decorate
