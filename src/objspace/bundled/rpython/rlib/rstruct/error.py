"""rpy-lsp's model of `rpython.rlib.rstruct.error`: what unpacking raises."""


class StructError(Exception):
    """A struct format that cannot be used, or data of the wrong size."""

    def __init__(self, msg):
        self.msg = msg

    def __str__(self):
        return self.msg


class StructOverflowError(StructError):
    pass
