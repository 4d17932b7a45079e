"""rpy-lsp's model of `rpython.rlib.cache`: `Cache` maps a finite set of keys to values
its subclass's `_build(key)` makes. `getorbuild` is specialized as a memo function: the
annotator calls it at translation time for every key the program can pass (constants, or
prebuilt objects/classes known at run time) and the translated program only looks the
result up, so each key's value is built once and is the same object at every call. A
Cache instance freezes (it is a prebuilt constant to the annotator)."""


class Cache(object):
    def __init__(self):
        self.content = {}
        self._building = {}

    def getorbuild(self, key):
        if key in self.content:
            return self.content[key]
        if key in self._building:
            raise RuntimeError("recursive building of a Cache key")
        self._building[key] = True
        try:
            result = self._build(key)
            self.content[key] = result
        finally:
            del self._building[key]
        self._ready(result)
        return result
    getorbuild._annspecialcase_ = "specialize:memo"

    def _ready(self, result):
        pass

    def _freeze_(self):
        return True
