"""rpy-lsp's model of `rpython.rlib.rsocket`: BSD sockets as RPython programs use them.

Written in RPython over the C library's socket calls, declared with `rffi.llexternal`:
`build` calls them, `run` stops at the first one (rpy-lsp does not open sockets itself),
and `check` sees the reference's classes, methods and result types: an `RSocket`
(`fd`, `family`, `type`, `proto`, `timeout`), the address classes (`INETAddress`,
`INET6Address`, `UNIXAddress`, each with `eq`), the `SocketError` family and the module
functions. The constants are the values of the reference's platform (x86-64 Linux).

An address keeps its `struct sockaddr` as a string of bytes (`_data`), built and read
here byte by byte. A socket with a timeout is non-blocking, and each call first waits with
`poll()` for at most the timeout (`SocketTimeout` when it passes), as the reference's.
Host names are not resolved: `INETAddress` takes a dotted IPv4 address ("" is any,
"localhost" the loopback), `INET6Address` only the any address; another host is a
`GAIError`. A name of the reference's module missing here is unknown (RPY007)."""
from rpython.rtyper.lltypesystem import lltype, rffi
from rpython.rlib.rarithmetic import r_uint, intmask
import os

AF_UNSPEC = 0
AF_UNIX = 1
AF_INET = 2
AF_INET6 = 10
AF_NETLINK = 16
AF_PACKET = 17
SOCK_STREAM = 1
SOCK_DGRAM = 2
SOCK_RAW = 3
SOCK_SEQPACKET = 5
SOCK_NONBLOCK = 2048
SOCK_CLOEXEC = 524288
SOL_SOCKET = 1
SO_DEBUG = 1
SO_REUSEADDR = 2
SO_TYPE = 3
SO_ERROR = 4
SO_DONTROUTE = 5
SO_BROADCAST = 6
SO_SNDBUF = 7
SO_RCVBUF = 8
SO_KEEPALIVE = 9
SO_OOBINLINE = 10
SO_LINGER = 13
SO_REUSEPORT = 15
SO_RCVLOWAT = 18
SO_SNDLOWAT = 19
SO_RCVTIMEO = 20
SO_SNDTIMEO = 21
IPPROTO_IP = 0
IPPROTO_ICMP = 1
IPPROTO_TCP = 6
IPPROTO_UDP = 17
IPPROTO_IPV6 = 41
IPPROTO_RAW = 255
TCP_NODELAY = 1
MSG_OOB = 1
MSG_PEEK = 2
MSG_DONTROUTE = 4
MSG_DONTWAIT = 64
MSG_WAITALL = 256
SHUT_RD = 0
SHUT_WR = 1
SHUT_RDWR = 2
INADDR_ANY = 0
INADDR_BROADCAST = 4294967295
INADDR_LOOPBACK = 2130706433
INADDR_NONE = 4294967295
SOMAXCONN = 4096
AI_PASSIVE = 1
AI_CANONNAME = 2
AI_NUMERICHOST = 4
NI_NUMERICHOST = 1
NI_NUMERICSERV = 2
NI_NAMEREQD = 8
INVALID_SOCKET = -1

_EINTR = 4
_EAGAIN = 11

# the C functions, with the reference's C types where they are plain numbers and a
# `char *` for each `struct sockaddr *`, `socklen_t *` and data buffer
_c_socket = rffi.llexternal("socket", [rffi.INT, rffi.INT, rffi.INT], rffi.INT)
_c_close = rffi.llexternal("close", [rffi.INT], rffi.INT)
_c_connect = rffi.llexternal("connect", [rffi.INT, rffi.CCHARP, rffi.INT], rffi.INT)
_c_bind = rffi.llexternal("bind", [rffi.INT, rffi.CCHARP, rffi.INT], rffi.INT)
_c_listen = rffi.llexternal("listen", [rffi.INT, rffi.INT], rffi.INT)
_c_accept = rffi.llexternal("accept", [rffi.INT, rffi.CCHARP, rffi.CCHARP], rffi.INT)
_c_recv = rffi.llexternal("recv", [rffi.INT, rffi.CCHARP, rffi.SIZE_T, rffi.INT],
                          rffi.SSIZE_T)
_c_recvfrom = rffi.llexternal("recvfrom", [rffi.INT, rffi.CCHARP, rffi.SIZE_T, rffi.INT,
                                           rffi.CCHARP, rffi.CCHARP], rffi.SSIZE_T)
_c_send = rffi.llexternal("send", [rffi.INT, rffi.CCHARP, rffi.SIZE_T, rffi.INT],
                          rffi.SSIZE_T)
_c_sendto = rffi.llexternal("sendto", [rffi.INT, rffi.CCHARP, rffi.SIZE_T, rffi.INT,
                                       rffi.CCHARP, rffi.INT], rffi.SSIZE_T)
_c_shutdown = rffi.llexternal("shutdown", [rffi.INT, rffi.INT], rffi.INT)
_c_getsockname = rffi.llexternal("getsockname", [rffi.INT, rffi.CCHARP, rffi.CCHARP],
                                 rffi.INT)
_c_getpeername = rffi.llexternal("getpeername", [rffi.INT, rffi.CCHARP, rffi.CCHARP],
                                 rffi.INT)
_c_getsockopt = rffi.llexternal("getsockopt", [rffi.INT, rffi.INT, rffi.INT, rffi.CCHARP,
                                               rffi.CCHARP], rffi.INT)
_c_setsockopt = rffi.llexternal("setsockopt", [rffi.INT, rffi.INT, rffi.INT, rffi.CCHARP,
                                               rffi.INT], rffi.INT)
_c_fcntl = rffi.llexternal("fcntl", [rffi.INT, rffi.INT, rffi.INT], rffi.INT)
_c_dup = rffi.llexternal("dup", [rffi.INT], rffi.INT)
_c_gethostname = rffi.llexternal("gethostname", [rffi.CCHARP, rffi.SIZE_T], rffi.INT)
_c_poll = rffi.llexternal("poll", [rffi.CCHARP, rffi.UINT, rffi.INT], rffi.INT)
_c_errno_location = rffi.llexternal("__errno_location", [], rffi.INTP)

_EINPROGRESS = 115
_EISCONN = 106
_EWOULDBLOCK = 11
_POLLIN = 1
_POLLOUT = 4
_F_GETFL = 3
_F_SETFL = 4
_O_NONBLOCK = 2048
_ADDRBUF = 128          # sizeof(struct sockaddr_storage)


def _errno():
    return intmask(_c_errno_location()[0])


def _bytes_le(value, n):
    """`value` as `n` bytes, least significant first (the machine's order)."""
    return "".join([chr((value >> (8 * i)) & 0xff) for i in range(n)])


def _bytes_be(value, n):
    """`value` as `n` bytes, most significant first (network order)."""
    return "".join([chr((value >> (8 * (n - 1 - i))) & 0xff) for i in range(n)])


def _read_be(data, start, n):
    value = 0
    for i in range(n):
        value = (value << 8) | ord(data[start + i])
    return value


def _read_le(data, start, n):
    value = 0
    for i in range(n):
        value |= ord(data[start + i]) << (8 * i)
    return value


def rsocket_startup():
    """Nothing to set up before the first socket on Linux (WSAStartup on Windows)."""
    pass


def ntohs(x):
    assert isinstance(x, int)    # as the toolchain's (another type always raises)
    return ((x >> 8) & 0xff) | ((x & 0xff) << 8)


htons = ntohs


def ntohl(x):
    x = r_uint(x)
    return (((x >> 24) & r_uint(0xff)) | ((x >> 8) & r_uint(0xff00)) |
            ((x & r_uint(0xff00)) << 8) | ((x & r_uint(0xff)) << 24))


htonl = ntohl


# ____________________________________________________________ errors

class SocketError(Exception):
    applevelerrcls = 'error'

    def __init__(self):
        pass

    def get_msg(self):
        return ''

    def __str__(self):
        return self.get_msg()


class SocketErrorWithErrno(SocketError):
    def __init__(self, errno):
        self.errno = errno


class RSocketError(SocketError):
    def __init__(self, message):
        self.message = message

    def get_msg(self):
        return self.message


class CSocketError(SocketErrorWithErrno):
    def get_msg(self):
        return os.strerror(self.errno)


class GAIError(SocketErrorWithErrno):
    applevelerrcls = 'gaierror'

    def get_msg(self):
        return "address resolution failed (error %d)" % self.errno


class HSocketError(SocketError):
    applevelerrcls = 'herror'

    def __init__(self, host):
        self.host = host

    def get_msg(self):
        return "host lookup failed: '%s'" % (self.host,)


class SocketTimeout(SocketError):
    applevelerrcls = 'timeout'

    def get_msg(self):
        return 'timed out'


def last_error():
    return CSocketError(_errno())


# ____________________________________________________________ addresses

class Address(object):
    """A socket address: its `struct sockaddr` bytes (`_data`) and their length."""
    family = AF_UNSPEC

    def __init__(self, data, addrlen):
        self._data = data
        self.addrlen = addrlen

    def eq(self, other):
        return self._data[:self.addrlen] == other._data[:other.addrlen]


def _parse_ipv4(host):
    """The four bytes of a dotted IPv4 address ("" is INADDR_ANY)."""
    if host == "" or host == "0.0.0.0":
        return "\x00\x00\x00\x00"
    if host == "localhost":
        return "\x7f\x00\x00\x01"
    parts = host.split(".")
    if len(parts) != 4:
        raise GAIError(-2)
    result = []
    for part in parts:
        if not part or not part.isdigit() or len(part) > 3:
            raise GAIError(-2)
        n = int(part)
        if n > 255:
            raise GAIError(-2)
        result.append(chr(n))
    return "".join(result)


class IPAddress(Address):
    """AF_INET and AF_INET6 addresses."""

    def get_host(self):
        raise NotImplementedError

    def get_port(self):
        return _read_be(self._data, 2, 2)


def _port_bits(port):
    # the toolchain's htons(x) asserts `isinstance(x, int)` before handing the port to C's
    # htons(unsigned short): a port of another type (a string) always raises there, so the
    # call never returns (an error only where a result is needed, as in the entry point)
    assert isinstance(port, int)
    return rffi.cast(lltype.Signed, rffi.cast(rffi.USHORT, port))


class INETAddress(IPAddress):
    family = AF_INET

    def __init__(self, host, port):
        # struct sockaddr_in: family (native order), port (network order), address; as the
        # toolchain's, the address is stored first and then the port (through htons, which
        # may always raise: the instance has its data anyway)
        Address.__init__(self, _bytes_le(AF_INET, 2) + "\x00\x00" + _parse_ipv4(host) +
                         "\x00" * 8, 16)
        self._set_port(port)

    def _set_port(self, port):
        self._data = self._data[:2] + _bytes_be(_port_bits(port), 2) + self._data[4:]

    def get_host(self):
        return "%d.%d.%d.%d" % (ord(self._data[4]), ord(self._data[5]),
                                ord(self._data[6]), ord(self._data[7]))

    def eq(self, other):
        return (isinstance(other, INETAddress) and
                self.get_host() == other.get_host() and
                self.get_port() == other.get_port())


class INET6Address(IPAddress):
    family = AF_INET6

    def __init__(self, host, port, flowinfo=0, scope_id=0):
        if host != "" and host != "::":
            raise GAIError(-2)
        data = (_bytes_le(AF_INET6, 2) + "\x00\x00" +
                _bytes_be(flowinfo, 4) + "\x00" * 16 + _bytes_le(scope_id, 4))
        Address.__init__(self, data, 28)
        self._data = self._data[:2] + _bytes_be(_port_bits(port), 2) + self._data[4:]

    def get_host(self):
        parts = []
        for i in range(8):
            parts.append("%x" % _read_be(self._data, 8 + 2 * i, 2))
        return ":".join(parts)

    def get_flowinfo(self):
        return _read_be(self._data, 4, 4)

    def get_scope_id(self):
        return _read_le(self._data, 24, 4)

    def eq(self, other):
        return (isinstance(other, INET6Address) and
                self.get_host() == other.get_host() and
                self.get_port() == other.get_port() and
                self.get_flowinfo() == other.get_flowinfo() and
                self.get_scope_id() == other.get_scope_id())


class UNIXAddress(Address):
    family = AF_UNIX

    def __init__(self, path):
        if len(path) >= 108 and not (len(path) > 0 and path[0] == '\x00'):
            raise RSocketError("AF_UNIX path too long")
        if len(path) > 108:
            raise RSocketError("AF_UNIX path too long")
        data = _bytes_le(AF_UNIX, 2) + path + "\x00" * (108 - len(path))
        Address.__init__(self, data, 2 + len(path))

    def get_path(self):
        n = self.addrlen - 2
        if n > 0 and self._data[2] == '\x00':
            return self._data[2:2 + n]
        end = 2
        while end < 2 + n and self._data[end] != '\x00':
            end += 1
        return self._data[2:end]

    def eq(self, other):
        return isinstance(other, UNIXAddress) and self.get_path() == other.get_path()


def make_address(data, addrlen):
    """The address the C library wrote (`data`, `addrlen` bytes of it)."""
    if addrlen < 2:
        return Address(data, addrlen)
    family = _read_le(data, 0, 2)
    if family == AF_INET:
        a = INETAddress("", 0)
    elif family == AF_INET6:
        a = INET6Address("", 0)
    elif family == AF_UNIX:
        a = UNIXAddress("")
    else:
        return Address(data, addrlen)
    a._data = data
    a.addrlen = addrlen
    return a


def _call_with_addrbuf(fd, which):
    """getsockname/getpeername/accept: the address the C call fills in, and its
    result."""
    buf = lltype.malloc(rffi.CCHARP.TO, _ADDRBUF, flavor='raw')
    lenp = lltype.malloc(rffi.CCHARP.TO, 4, flavor='raw')
    for i in range(_ADDRBUF):
        buf[i] = '\x00'
    size = _bytes_le(_ADDRBUF, 4)
    for i in range(4):
        lenp[i] = size[i]
    if which == 0:
        res = _c_getsockname(fd, buf, lenp)
    elif which == 1:
        res = _c_getpeername(fd, buf, lenp)
    else:
        res = _c_accept(fd, buf, lenp)
    addrlen = ord(lenp[0]) | (ord(lenp[1]) << 8)
    data = rffi.charpsize2str(buf, _ADDRBUF)
    lltype.free(lenp, flavor='raw')
    lltype.free(buf, flavor='raw')
    return res, make_address(data, addrlen)


# ____________________________________________________________ sockets

class Defaults(object):
    timeout = -1.0


defaults = Defaults()
defaults.timeout = -1.0


class RSocket(object):
    """A socket of the C library, by its file descriptor."""
    fd = INVALID_SOCKET
    family = 0
    type = 0
    proto = 0
    timeout = -1.0

    def __init__(self, family=AF_INET, type=SOCK_STREAM, proto=0,
                 fd=INVALID_SOCKET, inheritable=True):
        if fd < 0:
            if not inheritable:
                type |= SOCK_CLOEXEC
            fd = _c_socket(family, type, proto)
            if fd < 0:
                raise self.error_handler()
        self.fd = fd
        self.family = family
        self.type = type
        self.proto = proto
        self.timeout = defaults.timeout

    def error_handler(self):
        return last_error()

    def _select(self, for_writing):
        """0 when the socket is ready (or blocking), 1 when the timeout passed, -1 on
        an error of poll()."""
        if self.timeout <= 0.0 or self.fd < 0:
            return 0
        if for_writing:
            events = _POLLOUT
        else:
            events = _POLLIN
        # struct pollfd: int fd, short events, short revents
        data = _bytes_le(self.fd, 4) + _bytes_le(events, 2) + "\x00\x00"
        n = _c_poll(data, 1, int(self.timeout * 1000.0 + 0.5))
        if n < 0:
            return -1
        if n == 0:
            return 1
        return 0

    def wait_for_data(self, for_writing):
        timeout = self._select(for_writing)
        if timeout != 0:
            if timeout == 1:
                raise SocketTimeout
            raise self.error_handler()

    def _connect(self, address):
        """(errno, timed out) of connecting to `address`."""
        if _c_connect(self.fd, address._data, address.addrlen) >= 0:
            return 0, False
        err = _errno()
        if self.timeout > 0.0 and err == _EINPROGRESS:
            timeout = self._select(True)
            if timeout == 0:
                err = self.getsockopt_int(SOL_SOCKET, SO_ERROR)
                if err == _EISCONN:
                    err = 0
            elif timeout == -1:
                err = _errno()
            else:
                return _EWOULDBLOCK, True
        return err, False

    def fileno(self):
        fd = self.fd
        if fd < 0:
            raise RSocketError("socket already closed")
        return fd

    def accept(self, inheritable=True):
        if self._select(False) == 1:
            raise SocketTimeout
        newfd, address = _call_with_addrbuf(self.fd, 2)
        if newfd < 0:
            raise self.error_handler()
        return (newfd, address)

    def bind(self, address):
        if _c_bind(self.fd, address._data, address.addrlen) < 0:
            raise self.error_handler()

    def close(self):
        fd = self.fd
        if fd != INVALID_SOCKET:
            self.fd = INVALID_SOCKET
            if _c_close(fd) != 0:
                raise self.error_handler()

    def detach(self):
        fd = self.fd
        self.fd = INVALID_SOCKET
        return fd

    def connect(self, address):
        err, timeout = self._connect(address)
        if timeout:
            raise SocketTimeout
        if err:
            raise CSocketError(err)

    def connect_ex(self, address):
        err, timeout = self._connect(address)
        return err

    def dup(self, SocketClass=None):
        if SocketClass is None:
            SocketClass = RSocket
        fd = _c_dup(self.fd)
        if fd < 0:
            raise self.error_handler()
        return make_socket(fd, self.family, self.type, self.proto, SocketClass)

    def getpeername(self):
        res, address = _call_with_addrbuf(self.fd, 1)
        if res < 0:
            raise self.error_handler()
        return address

    def getsockname(self):
        res, address = _call_with_addrbuf(self.fd, 0)
        if res < 0:
            raise self.error_handler()
        return address

    def getsockopt(self, level, option, maxlen):
        buf = lltype.malloc(rffi.CCHARP.TO, maxlen + 4, flavor='raw')
        lenp = lltype.malloc(rffi.CCHARP.TO, 4, flavor='raw')
        size = _bytes_le(maxlen, 4)
        for i in range(4):
            lenp[i] = size[i]
        res = _c_getsockopt(self.fd, level, option, buf, lenp)
        got = _read_le(rffi.charpsize2str(lenp, 4), 0, 4)
        result = rffi.charpsize2str(buf, min(got, maxlen))
        lltype.free(lenp, flavor='raw')
        lltype.free(buf, flavor='raw')
        if res < 0:
            raise self.error_handler()
        return result

    def getsockopt_int(self, level, option):
        data = self.getsockopt(level, option, 4)
        value = _read_le(data + "\x00" * (4 - len(data)), 0, 4)
        if value >= 0x80000000:
            value -= 0x100000000
        return value

    def gettimeout(self):
        return self.timeout

    def listen(self, backlog):
        if backlog < 0:
            backlog = 0
        if _c_listen(self.fd, backlog) < 0:
            raise self.error_handler()

    def recv(self, buffersize, flags=0):
        self.wait_for_data(False)
        buf = lltype.malloc(rffi.CCHARP.TO, buffersize, flavor='raw')
        got = _c_recv(self.fd, buf, buffersize, flags)
        if got >= 0:
            data = rffi.charpsize2str(buf, got)
            lltype.free(buf, flavor='raw')
            return data
        lltype.free(buf, flavor='raw')
        raise self.error_handler()

    def recvfrom(self, buffersize, flags=0):
        self.wait_for_data(False)
        buf = lltype.malloc(rffi.CCHARP.TO, buffersize, flavor='raw')
        abuf = lltype.malloc(rffi.CCHARP.TO, _ADDRBUF, flavor='raw')
        lenp = lltype.malloc(rffi.CCHARP.TO, 4, flavor='raw')
        size = _bytes_le(_ADDRBUF, 4)
        for i in range(4):
            lenp[i] = size[i]
        got = _c_recvfrom(self.fd, buf, buffersize, flags, abuf, lenp)
        addrlen = ord(lenp[0]) | (ord(lenp[1]) << 8)
        if got >= 0:
            data = rffi.charpsize2str(buf, got)
        else:
            data = ""
        adata = rffi.charpsize2str(abuf, _ADDRBUF)
        lltype.free(lenp, flavor='raw')
        lltype.free(abuf, flavor='raw')
        lltype.free(buf, flavor='raw')
        if got < 0:
            raise self.error_handler()
        if addrlen > 0:
            return (data, make_address(adata, addrlen))
        return (data, None)

    def send(self, data, flags=0):
        self.wait_for_data(True)
        res = _c_send(self.fd, data, len(data), flags)
        if res < 0:
            raise self.error_handler()
        return res

    def sendall(self, data, flags=0, signal_checker=None):
        remaining = data
        while len(remaining) > 0:
            try:
                count = self.send(remaining, flags)
            except CSocketError as e:
                if e.errno != _EINTR:
                    raise
                if signal_checker is not None:
                    signal_checker()
                continue
            remaining = remaining[count:]

    def sendto(self, data, length, flags, address):
        self.wait_for_data(True)
        res = _c_sendto(self.fd, data, length, flags, address._data, address.addrlen)
        if res < 0:
            raise self.error_handler()
        return res

    def setblocking(self, block):
        if block:
            timeout = -1.0
        else:
            timeout = 0.0
        self.settimeout(timeout)

    def setsockopt(self, level, option, value):
        if _c_setsockopt(self.fd, level, option, value, len(value)) < 0:
            raise self.error_handler()

    def setsockopt_int(self, level, option, value):
        self.setsockopt(level, option, _bytes_le(value, 4))

    def settimeout(self, timeout):
        if timeout < 0.0:
            self.timeout = -1.0
        else:
            self.timeout = timeout
        flags = _c_fcntl(self.fd, _F_GETFL, 0)
        if self.timeout < 0.0:
            flags &= ~_O_NONBLOCK
        else:
            flags |= _O_NONBLOCK
        _c_fcntl(self.fd, _F_SETFL, flags)

    def shutdown(self, how):
        if _c_shutdown(self.fd, how) < 0:
            raise self.error_handler()


def make_socket(fd, family, type, proto, SocketClass=RSocket):
    result = SocketClass(family, type, proto, fd)
    return result


def fromfd(fd, family, type, proto=0, SocketClass=RSocket, inheritable=True):
    fd = _c_dup(fd)
    if fd < 0:
        raise last_error()
    return make_socket(fd, family, type, proto, SocketClass)


def getdefaulttimeout():
    return defaults.timeout


def setdefaulttimeout(timeout):
    if timeout < 0.0:
        timeout = -1.0
    defaults.timeout = timeout


def gethostname():
    buf = lltype.malloc(rffi.CCHARP.TO, 1024, flavor='raw')
    res = _c_gethostname(buf, 1023)
    name = rffi.charp2strn(buf, 1023)
    lltype.free(buf, flavor='raw')
    if res < 0:
        raise last_error()
    return name


def gethostbyname(name):
    return INETAddress(name, 0)


def inet_aton(ip):
    return _parse_ipv4(ip)


def inet_ntoa(packed):
    if len(packed) != 4:
        raise RSocketError("packed IP wrong length for inet_ntoa")
    return "%d.%d.%d.%d" % (ord(packed[0]), ord(packed[1]), ord(packed[2]),
                            ord(packed[3]))
