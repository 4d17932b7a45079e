"""rpy-lsp's model of the `stat` module: the POSIX file-type and permission bits of
`st_mode` (Linux values) and the tests on them, plain RPython functions."""

_IFMT = 0o170000
S_IFSOCK = 0o140000
S_IFLNK = 0o120000
S_IFREG = 0o100000
S_IFBLK = 0o060000
S_IFDIR = 0o040000
S_IFCHR = 0o020000
S_IFIFO = 0o010000

S_ISUID = 0o4000
S_ISGID = 0o2000
S_ISVTX = 0o1000
S_IRWXU = 0o700
S_IRUSR = 0o400
S_IWUSR = 0o200
S_IXUSR = 0o100
S_IRWXG = 0o070
S_IRGRP = 0o040
S_IWGRP = 0o020
S_IXGRP = 0o010
S_IRWXO = 0o007
S_IROTH = 0o004
S_IWOTH = 0o002
S_IXOTH = 0o001
S_IREAD = S_IRUSR
S_IWRITE = S_IWUSR
S_IEXEC = S_IXUSR

# indexes of the fields of a stat result
ST_MODE = 0
ST_INO = 1
ST_DEV = 2
ST_NLINK = 3
ST_UID = 4
ST_GID = 5
ST_SIZE = 6
ST_ATIME = 7
ST_MTIME = 8
ST_CTIME = 9


def S_IMODE(mode):
    return mode & 0o7777


def S_IFMT(mode):
    return mode & _IFMT


def S_ISDIR(mode):
    return mode & _IFMT == S_IFDIR


def S_ISCHR(mode):
    return mode & _IFMT == S_IFCHR


def S_ISBLK(mode):
    return mode & _IFMT == S_IFBLK


def S_ISREG(mode):
    return mode & _IFMT == S_IFREG


def S_ISFIFO(mode):
    return mode & _IFMT == S_IFIFO


def S_ISLNK(mode):
    return mode & _IFMT == S_IFLNK


def S_ISSOCK(mode):
    return mode & _IFMT == S_IFSOCK
