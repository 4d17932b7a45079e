"""rpy-lsp's model of `os.path` (POSIX paths), written in RPython."""
from __rpy__ import os_path_exists, os_path_isdir, os_path_isfile, os_getcwd, model_unknown
import os as _os  # partly initialised here: `os` imports `path` after defining lstat

exists = os_path_exists
isdir = os_path_isdir
isfile = os_path_isfile

sep = '/'
curdir = '.'
pardir = '..'


def isabs(s):
    return s.startswith('/')


# Translated code calls the reference's two-argument RPython join instead (its flow space
# redirects os.path.join): one component, or three, is a signature mismatch there.
def join(a, b):
    if b.startswith('/'):
        return b
    if a == '' or a.endswith('/'):
        return a + b
    return a + '/' + b


_rjoin = join


def join(a, *p):
    path = a
    for b in p:
        if b.startswith('/'):
            path = b
        elif path == '' or path.endswith('/'):
            path += b
        else:
            path += '/' + b
    return path


join._rpy_flow_redirect_ = _rjoin
del _rjoin


def split(p):
    i = p.rfind('/') + 1
    head = p[:i]
    tail = p[i:]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head, tail


def basename(p):
    i = p.rfind('/') + 1
    return p[i:]


def dirname(p):
    i = p.rfind('/') + 1
    head = p[:i]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head


def splitext(p):
    dot = p.rfind('.')
    slash = p.rfind('/')
    if dot > slash:
        # skip leading dots of the file name
        i = slash + 1
        while i < dot:
            if p[i] != '.':
                return p[:dot], p[dot:]
            i += 1
    return p, ''


def expanduser(path):
    """`~` and `~/...` with `HOME` of the environment import-time code sees (appdirs
    finds rply 0.7.4's cache directory so); another user's `~name`, or no `HOME`, needs
    the password database, which is not modelled."""
    if not path.startswith('~'):
        return path
    i = path.find('/', 1)
    if i < 0:
        i = len(path)
    if i != 1 or 'HOME' not in _os.environ:
        return model_unknown("os.path.expanduser()")
    userhome = _os.environ['HOME'].rstrip('/')
    return (userhome + path[i:]) or '/'


def abspath(p):
    if not isabs(p):
        p = join(os_getcwd(), p)
    return normpath(p)


# The reference flows CPython's genericpath versions of these (nothing redirects them):
# each is one `os.stat` and one field of its result.
def getmtime(filename):
    return _os.stat(filename).st_mtime


def getatime(filename):
    return _os.stat(filename).st_atime


def getctime(filename):
    return _os.stat(filename).st_ctime


def getsize(filename):
    return _os.stat(filename).st_size


def islink(p):
    """Whether `p` is a symbolic link (False when it cannot be read)."""
    try:
        st = _os.lstat(p)
    except OSError:
        return False
    return (st.st_mode & 0o170000) == 0o120000


def realpath(filename):
    """`os.path.realpath`: the absolute path with its symbolic links resolved, walking
    the path part by part and starting again from each link's target (at most 40 of
    them, as a loop of links would go on for ever)."""
    path = filename
    for _ in range(40):
        parts = path.split('/')
        current = '/' if isabs(path) else ''
        target = None
        i = 0
        while i < len(parts):
            part = parts[i]
            i += 1
            if part == '' or part == '.':
                continue
            current = join(current, part) if current else part
            if islink(current):
                target = _os.readlink(current)
                if not isabs(target):
                    target = join(dirname(current), target)
                break
        if target is None:
            return abspath(path)
        path = join(target, *parts[i:])
    return abspath(path)


def normpath(path):
    if path == '':
        return '.'
    initial_slashes = 0
    if path.startswith('/'):
        initial_slashes = 1
        if path.startswith('//') and not path.startswith('///'):
            initial_slashes = 2
    comps = path.split('/')
    new_comps = []
    for comp in comps:
        if comp == '' or comp == '.':
            continue
        if (comp != '..' or (initial_slashes == 0 and len(new_comps) == 0) or
                (len(new_comps) > 0 and new_comps[-1] == '..')):
            new_comps.append(comp)
        elif len(new_comps) > 0:
            new_comps.pop()
    result = '/'.join(new_comps)
    if initial_slashes:
        result = '/' * initial_slashes + result
    if result == '':
        return '.'
    return result
