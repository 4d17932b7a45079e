"""rpy-lsp's model of `py.code`: `Source`, lines of program text that can be deindented,
indented, joined and compiled (by the built-in `compile`, which our own compiler runs)."""


def _deindent(lines):
    """The lines without the indentation common to the non-blank ones."""
    margin = -1
    for line in lines:
        stripped = line.lstrip()
        if not stripped:
            continue
        width = len(line) - len(stripped)
        if margin < 0 or width < margin:
            margin = width
    if margin <= 0:
        return list(lines)
    result = []
    for line in lines:
        if line[:margin].strip():
            result.append(line.lstrip())
        else:
            result.append(line[margin:])
    return result


class Source(object):
    """Program text as a list of lines, as pylib's `py.code.Source`."""

    def __init__(self, *parts, **kwargs):
        deindent = kwargs.get('deindent', True)
        rstrip = kwargs.get('rstrip', True)
        lines = []
        for part in parts:
            if isinstance(part, Source):
                partlines = part.lines
            elif isinstance(part, (tuple, list)):
                partlines = [x.rstrip("\n") for x in part]
            else:
                partlines = str(part).split('\n')
                if rstrip:
                    while partlines and not partlines[-1].strip():
                        partlines.pop()
            if deindent:
                partlines = _deindent(partlines)
            lines.extend(partlines)
        self.lines = lines

    def __str__(self):
        return "\n".join(self.lines)

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        return self.lines[i]

    def strip(self):
        start = 0
        end = len(self.lines)
        while start < end and not self.lines[start].strip():
            start += 1
        while end > start and not self.lines[end - 1].strip():
            end -= 1
        return Source(self.lines[start:end], deindent=False)

    def deindent(self):
        return Source(_deindent(self.lines), deindent=False)

    def indent(self, indent=' ' * 4):
        return Source([indent + line for line in self.lines], deindent=False)

    def putaround(self, before='', after='', indent=' ' * 4):
        before = Source(before)
        after = Source(after)
        body = self.indent(indent)
        return Source(before.lines + body.lines + after.lines, deindent=False)

    def compile(self, filename=None, mode='exec', flag=0, dont_inherit=0, _genframe=None):
        if filename is None:
            filename = '<codegen>'
        return compile(str(self) + '\n', filename, mode)
