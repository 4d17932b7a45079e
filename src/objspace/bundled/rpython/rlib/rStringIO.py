"""rpy-lsp's model of `rpython.rlib.rStringIO`: an in-memory file of bytes, written in
RPython. The content is one list of characters; the position is AT_END or an index,
possibly past the end (a write there first pads with NUL bytes). The reference keeps
the pieces of a run of writes apart until they are needed; what a program observes is
the same."""

AT_END = -1


class RStringIO(object):
    def __init__(self):
        self.init()

    def init(self):
        self._closed = False
        self._chars = []
        self._pos = AT_END

    def close(self):
        self._closed = True
        self._chars = []
        self._pos = AT_END

    def is_closed(self):
        return self._closed

    def getvalue(self):
        return ''.join(self._chars)

    def getsize(self):
        return len(self._chars)

    def write(self, buffer):
        p = self._pos
        if p == AT_END:
            p = len(self._chars)
        while len(self._chars) < p:
            self._chars.append('\x00')
        i = 0
        while i < len(buffer):
            if p + i < len(self._chars):
                self._chars[p + i] = buffer[i]
            else:
                self._chars.append(buffer[i])
            i += 1
        self._pos = p + len(buffer)

    def seek(self, position, mode=0):
        if mode == 0:
            if position == self.getsize():
                self._pos = AT_END
                return
        elif mode == 1:
            if self._pos == AT_END:
                self._pos = self.getsize()
            position += self._pos
        elif mode == 2:
            if position == 0:
                self._pos = AT_END
                return
            position += self.getsize()
        if position < 0:
            position = 0
        self._pos = position

    def tell(self):
        if self._pos == AT_END:
            return self.getsize()
        return self._pos

    def read(self, size=-1):
        p = self._pos
        if p == AT_END or size == 0:
            return ''
        assert p >= 0
        count = len(self._chars) - p
        if size >= 0 and size < count:
            count = size
        if count <= 0:
            return ''
        self._pos = p + count
        return ''.join(self._chars[p:p + count])

    def readline(self, size=-1):
        p = self._pos
        if p == AT_END or size == 0:
            return ''
        assert p >= 0
        end = len(self._chars)
        count = end - p
        if size >= 0 and size < count:
            end = p + size
        if count <= 0:
            return ''
        i = p
        while i < end:
            finished = self._chars[i] == '\n'
            i += 1
            if finished:
                break
        self._pos = i
        return ''.join(self._chars[p:i])

    def truncate(self, size):
        """Never enlarges; always moves to the (new) end, as cStringIO does."""
        assert size >= 0
        if size < len(self._chars):
            self._chars = self._chars[:size]
        self._pos = AT_END
