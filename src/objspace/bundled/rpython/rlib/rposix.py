"""rpy-lsp's model of `rpython.rlib.rposix`: the functions that replace those of `os` in
translated code. Where the reference's function takes the same arguments as the `os`
one, it *is* the `os` one (`os.getcwd` is `rposix.getcwd` after the reference's
`replace_os_function`), so the names below are the `os` model's. The others (`dup` and
`dup2` with `inheritable`, `pipe(flags)`, errno access, the `c_*` externals) are not
modelled: what comes from them is unknown."""
import os

getcwd = os.getcwd
chdir = os.chdir
access = os.access
listdir = os.listdir
read = os.read
write = os.write
close = os.close
lseek = os.lseek
ftruncate = os.ftruncate
fsync = os.fsync
fork = os.fork
waitpid = os.waitpid
getlogin = os.getlogin
getloadavg = os.getloadavg
readlink = os.readlink
isatty = os.isatty
ttyname = os.ttyname
strerror = os.strerror
system = os.system
unlink = os.unlink
mkdir = os.mkdir
rmdir = os.rmdir
chmod = os.chmod
rename = os.rename
link = os.link
symlink = os.symlink
umask = os.umask
times = os.times
kill = os.kill
exit = os._exit
execv = os.execv
execve = os.execve
nice = os.nice
getpid = os.getpid
getppid = os.getppid
setsid = os.setsid
getpgrp = os.getpgrp
getuid = os.getuid
geteuid = os.geteuid
getgid = os.getgid
getegid = os.getegid


def open(path, flags, mode):
    # the reference's takes the mode always (os.open's is optional)
    return os.open(path, flags, mode)
