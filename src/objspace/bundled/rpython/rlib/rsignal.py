"""rpy-lsp's model of `rpython.rlib.rsignal`: the signal numbers and the C functions of the
toolchain's signal support.

The numbers are those of the reference's platform (CPython's `signal` module on x86-64
Linux), as are `ITIMER_*` and `SIG_BLOCK`/`SIG_UNBLOCK`/`SIG_SETMASK`, which the toolchain
asks the C compiler for. The functions are declared with `rffi.llexternal` as the
toolchain declares them: `check` sees their argument and result types; `run` stops at the
first one called. The `pypysig_*` functions are the toolchain's own C code (`signals.c`),
which rpy-lsp's C runtime does not provide: `build` of a program calling them fails to
link."""
from rpython.rtyper.lltypesystem import lltype, rffi

SIGHUP = 1
SIGINT = 2
SIGQUIT = 3
SIGILL = 4
SIGTRAP = 5
SIGABRT = 6
SIGIOT = 6
SIGBUS = 7
SIGFPE = 8
SIGKILL = 9
SIGUSR1 = 10
SIGSEGV = 11
SIGUSR2 = 12
SIGPIPE = 13
SIGALRM = 14
SIGTERM = 15
SIGCHLD = 17
SIGCLD = 17
SIGCONT = 18
SIGSTOP = 19
SIGTSTP = 20
SIGTTIN = 21
SIGTTOU = 22
SIGURG = 23
SIGXCPU = 24
SIGXFSZ = 25
SIGVTALRM = 26
SIGPROF = 27
SIGWINCH = 28
SIGIO = 29
SIGPOLL = 29
SIGPWR = 30
SIGSYS = 31
SIGRTMIN = 34
SIGRTMAX = 64

NSIG = 65
SIG_DFL = 0
SIG_IGN = 1

signal_names = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGIOT',
                'SIGBUS', 'SIGFPE', 'SIGKILL', 'SIGUSR1', 'SIGSEGV', 'SIGUSR2', 'SIGPIPE',
                'SIGALRM', 'SIGTERM', 'SIGCHLD', 'SIGCLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP',
                'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM',
                'SIGPROF', 'SIGWINCH', 'SIGIO', 'SIGPOLL', 'SIGPWR', 'SIGSYS', 'SIGRTMIN',
                'SIGRTMAX']
signal_values = {}
for _name in signal_names:
    signal_values[globals()[_name]] = None
del _name

ITIMER_REAL = 0
ITIMER_VIRTUAL = 1
ITIMER_PROF = 2
SIG_BLOCK = 0
SIG_UNBLOCK = 1
SIG_SETMASK = 2

timeval = rffi.CStruct('timeval', ('tv_sec', rffi.LONG), ('tv_usec', rffi.LONG))
itimerval = rffi.CStruct('itimerval', ('it_value', timeval), ('it_interval', timeval))


def external(name, args, result, **kwds):
    return rffi.llexternal(name, args, result, sandboxsafe=True, **kwds)


pypysig_ignore = external('pypysig_ignore', [rffi.INT], lltype.Void)
pypysig_default = external('pypysig_default', [rffi.INT], lltype.Void)
pypysig_setflag = external('pypysig_setflag', [rffi.INT], lltype.Void)
pypysig_reinstall = external('pypysig_reinstall', [rffi.INT], lltype.Void)
pypysig_set_wakeup_fd = external('pypysig_set_wakeup_fd', [rffi.INT, rffi.INT], rffi.INT)
pypysig_poll = external('pypysig_poll', [], rffi.INT, releasegil=False)
pypysig_pushback = external('pypysig_pushback', [rffi.INT], lltype.Void,
                            releasegil=False)

LONG_STRUCT = lltype.Struct('pypysig_long_struct', ('c_value', lltype.Signed))
pypysig_getaddr_occurred = external('pypysig_getaddr_occurred', [],
                                    lltype.Ptr(LONG_STRUCT), _nowrapper=True,
                                    elidable_function=True)
c_alarm = external('alarm', [rffi.INT], rffi.INT)
c_pause = external('pause', [], rffi.INT, releasegil=True)
c_siginterrupt = external('siginterrupt', [rffi.INT, rffi.INT], rffi.INT,
                          save_err=rffi.RFFI_SAVE_ERRNO)

itimervalP = rffi.CArrayPtr(itimerval)
c_setitimer = external('setitimer', [rffi.INT, itimervalP, itimervalP], rffi.INT,
                       save_err=rffi.RFFI_SAVE_ERRNO)
c_getitimer = external('getitimer', [rffi.INT, itimervalP], rffi.INT)

c_pthread_kill = external('pthread_kill', [lltype.Signed, rffi.INT], rffi.INT,
                          save_err=rffi.RFFI_SAVE_ERRNO)

c_sigset_t = rffi.COpaquePtr('sigset_t')
c_sigemptyset = external('sigemptyset', [c_sigset_t], rffi.INT)
c_sigaddset = external('sigaddset', [c_sigset_t, rffi.INT], rffi.INT)
c_sigismember = external('sigismember', [c_sigset_t, rffi.INT], rffi.INT)
c_sigwait = external('sigwait', [c_sigset_t, rffi.INTP], rffi.INT, releasegil=True,
                     save_err=rffi.RFFI_SAVE_ERRNO)
c_sigpending = external('sigpending', [c_sigset_t], rffi.INT,
                        save_err=rffi.RFFI_SAVE_ERRNO)
c_pthread_sigmask = external('pthread_sigmask', [rffi.INT, c_sigset_t, c_sigset_t],
                             rffi.INT, save_err=rffi.RFFI_SAVE_ERRNO)
