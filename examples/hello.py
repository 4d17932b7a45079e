# A small standalone RPython program: `rpy-lsp graph examples/hello.py` prints its flow
# graphs, `rpy-lsp check examples/hello.py` checks it.
import os


class Greeter(object):
    def __init__(self, name):
        self.name = name

    def greet(self, times):
        result = []
        i = 0
        while i < times:
            result.append("hello, %s" % self.name)
            i += 1
        return "\n".join(result)


def entry_point(argv):
    if len(argv) > 1:
        name = argv[1]
    else:
        name = "world"
    try:
        text = Greeter(name).greet(2)
    except ValueError, e:
        print "error"
        return 1
    os.write(1, text + "\n")
    return 0


def target(*args):
    return entry_point, None
