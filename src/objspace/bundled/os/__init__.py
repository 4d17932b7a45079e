"""rpy-lsp's model of the `os` module for RPython programs.

The functions are primitives of rpy-lsp (builtins named `os.<name>`); at import time
`os.write(1, s)` and `os.write(2, s)` go to rpy-lsp's captured output, files can only be
opened for reading, and nothing is ever written to disk.
"""
from __rpy__ import os_write, os_read, os_open, os_close, os_lseek, os_getenv
from __rpy__ import os_getpid, os_unlink, os_remove, os_rename, os_mkdir, os_rmdir
from __rpy__ import os_isatty, os_getcwd, os_strerror, os_listdir, os_system, os__exit
from __rpy__ import os_environ_snapshot, os_stat_fields, os_lstat_fields, os_fstat_fields
from __rpy__ import os_getppid, os_getuid, os_geteuid, os_getgid, os_getegid, os_getpgrp
from __rpy__ import os_fork, os_setsid, os_getloadavg, os_getlogin, os_kill, os_dup, os_dup2
from __rpy__ import os_fsync, os_pipe, os_chdir, os_chmod, os_access, os_umask, os_times
from __rpy__ import os_waitpid, os_ttyname, os_readlink, os_symlink, os_link, os_ftruncate
from __rpy__ import os_nice, os_fdopen, os_execv_raw, os_urandom
from rpython.rlib.objectmodel import specialize

write = os_write
read = os_read
open = os_open
close = os_close
lseek = os_lseek
getenv = os_getenv
getpid = os_getpid
unlink = os_unlink
remove = os_remove
rename = os_rename
mkdir = os_mkdir
rmdir = os_rmdir
isatty = os_isatty
getcwd = os_getcwd
urandom = os_urandom
strerror = os_strerror
listdir = os_listdir
system = os_system
_exit = os__exit
getppid = os_getppid
getuid = os_getuid
geteuid = os_geteuid
getgid = os_getgid
getegid = os_getegid
getpgrp = os_getpgrp
fork = os_fork
setsid = os_setsid
getloadavg = os_getloadavg
getlogin = os_getlogin
kill = os_kill
dup = os_dup
dup2 = os_dup2
fsync = os_fsync
pipe = os_pipe
chdir = os_chdir
chmod = os_chmod
access = os_access
umask = os_umask
times = os_times
waitpid = os_waitpid
ttyname = os_ttyname
readlink = os_readlink
fdopen = os_fdopen
symlink = os_symlink
link = os_link
ftruncate = os_ftruncate
nice = os_nice

O_RDONLY = 0
O_WRONLY = 1
O_RDWR = 2
O_CREAT = 64
O_EXCL = 128
O_NOCTTY = 256
O_TRUNC = 512
O_APPEND = 1024
O_NONBLOCK = 2048
O_BINARY = 0
O_NDELAY = 2048
O_DSYNC = 4096
O_ASYNC = 8192
O_DIRECT = 16384
O_DIRECTORY = 65536
O_NOFOLLOW = 131072
O_NOATIME = 262144
O_SYNC = 1052672
O_RSYNC = 1052672
O_LARGEFILE = 0

# exit statuses of sysexits.h (Linux values, as the reference's CPython 2.7 has them)
EX_OK = 0
EX_USAGE = 64
EX_DATAERR = 65
EX_NOINPUT = 66
EX_NOUSER = 67
EX_NOHOST = 68
EX_UNAVAILABLE = 69
EX_SOFTWARE = 70
EX_OSERR = 71
EX_OSFILE = 72
EX_CANTCREAT = 73
EX_IOERR = 74
EX_TEMPFAIL = 75
EX_PROTOCOL = 76
EX_NOPERM = 77
EX_CONFIG = 78

SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2

F_OK = 0
X_OK = 1
W_OK = 2
R_OK = 4

name = 'posix'
sep = '/'
altsep = None
extsep = '.'
pathsep = ':'
linesep = '\n'
curdir = '.'
pardir = '..'
devnull = '/dev/null'

error = OSError


# The wait-status macros of Linux's C library (rposix turns them into functions; those
# of a test return a bool).
def WIFEXITED(status):
    return (status & 0x7f) == 0


def WEXITSTATUS(status):
    return (status >> 8) & 0xff


def WIFSIGNALED(status):
    sig = status & 0x7f
    return sig != 0 and sig != 0x7f


def WTERMSIG(status):
    return status & 0x7f


def WIFSTOPPED(status):
    return (status & 0xff) == 0x7f


def WSTOPSIG(status):
    return (status >> 8) & 0xff


def WCOREDUMP(status):
    return (status & 0x80) != 0


def WIFCONTINUED(status):
    return status == 0xffff


WNOHANG = 1
WUNTRACED = 2


class stat_result(object):
    """What `stat` returns: the st_* fields, times as floats. Indexed with a constant, it
    is the tuple of the first ten fields, the times in whole seconds (as in RPython)."""

    def __init__(self, t):
        self.st_mode = t[0]
        self.st_ino = t[1]
        self.st_dev = t[2]
        self.st_nlink = t[3]
        self.st_uid = t[4]
        self.st_gid = t[5]
        self.st_size = t[6]
        self.st_atime = t[7]
        self.st_mtime = t[8]
        self.st_ctime = t[9]


    @specialize.arg(1)
    def __getitem__(self, i):
        if i == 0:
            return self.st_mode
        if i == 1:
            return self.st_ino
        if i == 2:
            return self.st_dev
        if i == 3:
            return self.st_nlink
        if i == 4:
            return self.st_uid
        if i == 5:
            return self.st_gid
        if i == 6:
            return self.st_size
        if i == 7:
            return int(self.st_atime)
        if i == 8:
            return int(self.st_mtime)
        if i == 9:
            return int(self.st_ctime)
        raise IndexError


def stat(path):
    return stat_result(os_stat_fields(path))


def lstat(path):
    return stat_result(os_lstat_fields(path))


def fstat(fd):
    return stat_result(os_fstat_fields(fd))

environ = os_environ_snapshot()

from os import path


def _nul_ended(items):
    # The C strings of execv: each entry ends at its first NUL, and the external gets
    # them one after the other, each ended by a NUL.
    parts = []
    for s in items:
        parts.append(s.split('\x00')[0] + '\x00')
    return ''.join(parts)


def execv(path, args):
    """Replaces the process; returns only by raising OSError, as the reference's does."""
    err = os_execv_raw(path, _nul_ended(args), len(args), '', -1)
    raise OSError(err, "execv failed")


def execve(path, args, env):
    envstrs = []
    for item in env.iteritems():
        envstrs.append("%s=%s" % item)
    err = os_execv_raw(path, _nul_ended(args), len(args), _nul_ended(envstrs), len(envstrs))
    raise OSError(err, "execve failed")
