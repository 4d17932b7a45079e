"""rpy-lsp's model of the `errno` module: the Linux error numbers."""

EPERM = 1
ENOENT = 2
ESRCH = 3
EINTR = 4
EIO = 5
ENXIO = 6
E2BIG = 7
ENOEXEC = 8
EBADF = 9
ECHILD = 10
EAGAIN = 11
EWOULDBLOCK = 11
ENOMEM = 12
EACCES = 13
EFAULT = 14
EBUSY = 16
EEXIST = 17
EXDEV = 18
ENODEV = 19
ENOTDIR = 20
EISDIR = 21
EINVAL = 22
ENFILE = 23
EMFILE = 24
ENOTTY = 25
EFBIG = 27
ENOSPC = 28
ESPIPE = 29
EROFS = 30
EMLINK = 31
EPIPE = 32
EDOM = 33
ERANGE = 34
EDEADLK = 35
ENAMETOOLONG = 36
ENOSYS = 38
ENOTEMPTY = 39
ELOOP = 40
ENOTSUP = 95
EOPNOTSUPP = 95
EADDRINUSE = 98
ECONNRESET = 104
ETIMEDOUT = 110
ECONNREFUSED = 111
EINPROGRESS = 115

errorcode = {}
for _name, _value in list(globals().items()):
    if _name.startswith('E') and isinstance(_value, int):
        errorcode.setdefault(_value, _name)
del _name, _value
