/* os.c: the os externals of src/rtyper/rexternal.rs (declared in text.h). The
 * LLInterpreter's src/llinterp/runtime/os.rs is the specification of each; a failing
 * call raises OSError. */
#include "text.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

/* a path as a C string (malloc'ed), or NULL with the exception set */
#define WITH_PATH(p, path, fail)                                                             \
    char *p = rpy_cpath(path);                                                               \
    if (!p)                                                                                  \
        return fail;

static void check(int r) {
    if (r < 0)
        rpy_raise_oserror(errno);
}

void RPyRT_ll_os_unlink(struct rpy_string *path) {
    WITH_PATH(p, path, )
    check(unlink(p));
    free(p);
}

void RPyRT_ll_os_rmdir(struct rpy_string *path) {
    WITH_PATH(p, path, )
    check(rmdir(p));
    free(p);
}

void RPyRT_ll_os_mkdir(struct rpy_string *path, long mode) {
    WITH_PATH(p, path, )
    check(mkdir(p, (mode_t)mode));
    free(p);
}

void RPyRT_ll_os_chdir(struct rpy_string *path) {
    WITH_PATH(p, path, )
    check(chdir(p));
    free(p);
}

void RPyRT_ll_os_rename(struct rpy_string *from, struct rpy_string *to) {
    WITH_PATH(p, from, )
    char *q = rpy_cpath(to);
    if (q) {
        check(rename(p, q));
        free(q);
    }
    free(p);
}

void RPyRT_ll_os_link(struct rpy_string *from, struct rpy_string *to) {
    WITH_PATH(p, from, )
    char *q = rpy_cpath(to);
    if (q) {
        check(link(p, q));
        free(q);
    }
    free(p);
}

void RPyRT_ll_os_symlink(struct rpy_string *from, struct rpy_string *to) {
    WITH_PATH(p, from, )
    char *q = rpy_cpath(to);
    if (q) {
        check(symlink(p, q));
        free(q);
    }
    free(p);
}

long RPyRT_ll_os_getpid(void) { return (long)getpid(); }

struct rpy_string *RPyRT_ll_os_getcwd(void) {
    char buf[4096];
    if (!getcwd(buf, sizeof buf)) {
        rpy_raise_oserror(errno);
        return NULL;
    }
    return rpy_mkstr(buf, (long)strlen(buf));
}

struct rpy_string *RPyRT_ll_os_strerror(long e) {
    const char *t = strerror((int)e);
    return rpy_mkstr(t, (long)strlen(t));
}

bool RPyRT_ll_os_isatty(long fd) { return isatty((int)fd) == 1; }

long RPyRT_ll_os_dup(long fd) {
    int r = dup((int)fd);
    check(r);
    return r;
}

void RPyRT_ll_os_dup2(long fd, long newfd) { check(dup2((int)fd, (int)newfd)); }

long RPyRT_ll_os_kill(long pid, long sig) {
    check(kill((pid_t)pid, (int)sig));
    return 0;
}

long RPyRT_ll_os_fork(void) {
    pid_t r = fork();
    check((int)r);
    return (long)r;
}

long RPyRT_ll_os_waitpid_raw(long pid, long options) {
    int status = 0;
    pid_t r = waitpid((pid_t)pid, &status, (int)options);
    check((int)r);
    return ((long)r << 32) | (long)(unsigned int)status;
}

void RPyRT_ll_os_exit(long status) { _exit((int)status); }

long RPyRT_ll_os_pipe_raw(void) {
    int fds[2];
    if (pipe(fds) != 0) {
        rpy_raise_oserror(errno);
        return 0;
    }
    return ((long)fds[0] << 32) | (long)fds[1];
}

void RPyRT_ll_os_fsync(long fd) { check(fsync((int)fd)); }

/* the tests that answer False for a path that cannot name a file */
static bool stat_of(struct rpy_string *path, struct stat *st) {
    if (memchr(path->items, 0, (size_t)path->length))
        return false;
    char *p = rpy_cpath(path);
    if (!p)
        return false;
    int r = stat(p, st);
    free(p);
    return r == 0;
}

bool RPyRT_ll_os_access(struct rpy_string *path, long mode) {
    if (memchr(path->items, 0, (size_t)path->length))
        return false;
    WITH_PATH(p, path, false)
    int r = access(p, (int)mode);
    free(p);
    return r == 0;
}

bool RPyRT_ll_os_path_exists(struct rpy_string *path) {
    struct stat st;
    return stat_of(path, &st);
}

bool RPyRT_ll_os_path_isdir(struct rpy_string *path) {
    struct stat st;
    return stat_of(path, &st) && S_ISDIR(st.st_mode);
}

bool RPyRT_ll_os_path_isfile(struct rpy_string *path) {
    struct stat st;
    return stat_of(path, &st) && S_ISREG(st.st_mode);
}

/* Added to the field number for os.lstat (the link itself), as RuntimeFn says. */
#define STAT_NOFOLLOW 16

static bool stat_or_raise(struct rpy_string *path, struct stat *st, long i) {
    WITH_PATH(p, path, false)
    int r = (i & STAT_NOFOLLOW) ? lstat(p, st) : stat(p, st);
    int e = errno;
    free(p);
    if (r < 0) {
        rpy_raise_oserror(e);
        return false;
    }
    return true;
}

static long stat_int_field(const struct stat *st, long i) {
    switch (i & ~STAT_NOFOLLOW) {
    case 0: return (long)st->st_mode;
    case 1: return (long)st->st_ino;
    case 2: return (long)st->st_dev;
    case 3: return (long)st->st_nlink;
    case 4: return (long)st->st_uid;
    case 5: return (long)st->st_gid;
    default: return (long)st->st_size;
    }
}

static double stat_time_field(const struct stat *st, long i) {
    i &= ~STAT_NOFOLLOW;
    struct timespec t = i == 7 ? st->st_atim : i == 8 ? st->st_mtim : st->st_ctim;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

long RPyRT_ll_os_stat_int(struct rpy_string *path, long i) {
    struct stat st;
    if (!stat_or_raise(path, &st, i))
        return 0;
    return stat_int_field(&st, i);
}

double RPyRT_ll_os_stat_float(struct rpy_string *path, long i) {
    struct stat st;
    if (!stat_or_raise(path, &st, i))
        return 0.0;
    return stat_time_field(&st, i);
}

static bool fstat_or_raise(long fd, struct stat *st) {
    if (fstat((int)fd, st) < 0) {
        rpy_raise_oserror(errno);
        return false;
    }
    return true;
}

long RPyRT_ll_os_fstat_int(long fd, long i) {
    struct stat st;
    if (!fstat_or_raise(fd, &st))
        return 0;
    return stat_int_field(&st, i);
}

double RPyRT_ll_os_fstat_float(long fd, long i) {
    struct stat st;
    if (!fstat_or_raise(fd, &st))
        return 0.0;
    return stat_time_field(&st, i);
}

/* os.environ of the translated program (src/rtyper/renviron.rs): the process's
 * environment through getenv, setenv and unsetenv. A name the C library cannot hold
 * (empty, with '=' or a NUL) is never set. */
static char *env_name(struct rpy_string *key) {
    long n = key->length;
    if (n == 0 || memchr(key->items, '=', (size_t)n) || memchr(key->items, 0, (size_t)n))
        return NULL;
    char *k = malloc((size_t)n + 1);
    if (!k)
        return NULL;
    memcpy(k, key->items, (size_t)n);
    k[n] = 0;
    return k;
}

struct rpy_string *RPyRT_ll_os_environ_get(struct rpy_string *key) {
    char *k = env_name(key);
    if (!k)
        return NULL;
    const char *v = getenv(k);
    free(k);
    return v ? rpy_mkstr(v, (long)strlen(v)) : NULL;
}

struct rpy_string *RPyRT_ll_os_environ_getitem(struct rpy_string *key) {
    struct rpy_string *v = RPyRT_ll_os_environ_get(key);
    if (!v)
        rpy_raise_std(RPY_EXC_KeyError);
    return v;
}

void RPyRT_ll_os_environ_setitem(struct rpy_string *key, struct rpy_string *value) {
    char *k = env_name(key);
    if (!k) {
        rpy_raise_oserror(EINVAL);
        return;
    }
    char *v = rpy_cpath(value);
    if (v) {
        check(setenv(k, v, 1));
        free(v);
    }
    free(k);
}

void RPyRT_ll_os_environ_delitem(struct rpy_string *key) {
    char *k = env_name(key);
    if (!k) {
        rpy_raise_oserror(EINVAL);
        return;
    }
    int absent = getenv(k) == NULL;
    check(unsetenv(k));
    free(k);
    if (absent)
        rpy_raise_std(RPY_EXC_KeyError);
}

/* os.environ.keys() and items(): each "name=value" entry of the environment (those with
 * a '='), each followed by a NUL; ll_os.py splits them */
extern char **environ;
struct rpy_string *RPyRT_ll_os_environ_raw(void) {
    size_t total = 0;
    for (char **e = environ; *e; e++)
        if (strchr(*e, '='))
            total += strlen(*e) + 1;
    char *buf = malloc(total + 1);
    if (!buf) {
        rpy_raise_std(RPY_EXC_MemoryError);
        return NULL;
    }
    size_t o = 0;
    for (char **e = environ; *e; e++) {
        if (!strchr(*e, '='))
            continue;
        size_t n = strlen(*e) + 1;
        memcpy(buf + o, *e, n);
        o += n;
    }
    struct rpy_string *r = rpy_mkstr(buf, (long)total);
    free(buf);
    return r;
}

/* ---- the process functions of rposix, and chmod/readlink/ftruncate/ttyname --------- */

long RPyRT_ll_os_umask(long mask) { return (long)umask((mode_t)mask); }

double RPyRT_ll_os_times_item(long i) {
    struct tms t;
    long r = (long)times(&t);
    double tck = (double)sysconf(_SC_CLK_TCK);
    switch (i) {
    case 0: return (double)(long)t.tms_utime / tck;
    case 1: return (double)(long)t.tms_stime / tck;
    case 2: return (double)(long)t.tms_cutime / tck;
    case 3: return (double)(long)t.tms_cstime / tck;
    default: return (double)r / tck;
    }
}

void RPyRT_ll_os_chmod(struct rpy_string *path, long mode) {
    WITH_PATH(p, path, )
    check(chmod(p, (mode_t)mode));
    free(p);
}

struct rpy_string *RPyRT_ll_os_readlink(struct rpy_string *path) {
    char buf[4096];
    WITH_PATH(p, path, NULL)
    ssize_t n = readlink(p, buf, sizeof buf);
    int e = errno;
    free(p);
    if (n < 0) {
        rpy_raise_oserror(e);
        return NULL;
    }
    return rpy_mkstr(buf, (long)n);
}

void RPyRT_ll_os_ftruncate(long fd, long length) { check(ftruncate((int)fd, (off_t)length)); }

/* a string of the C library's static storage, or OSError of errno when it gave none */
static struct rpy_string *c_text_or_raise(const char *t) {
    if (!t) {
        rpy_raise_oserror(errno);
        return NULL;
    }
    return rpy_mkstr(t, (long)strlen(t));
}

struct rpy_string *RPyRT_ll_os_ttyname(long fd) { return c_text_or_raise(ttyname((int)fd)); }

struct rpy_string *RPyRT_ll_os_getlogin(void) { return c_text_or_raise(getlogin()); }

long RPyRT_ll_os_system(struct rpy_string *command) {
    char *c = rpy_cpath(command);
    if (!c)
        return -1;
    long r = (long)system(c);
    free(c);
    return r;
}

/* A NULL-terminated array of the n NUL-ended entries of s (pointers into s's chars,
   which end in a NUL each: the model cut every entry at its first NUL). */
static char **nul_entries(struct rpy_string *s, long n) {
    char **v = malloc(sizeof(char *) * (size_t)(n + 1));
    long k = 0, start = 0;
    for (long i = 0; i < s->length && k < n; i++)
        if (s->items[i] == 0) {
            v[k++] = (char *)s->items + start;
            start = i + 1;
        }
    v[k] = NULL;
    return v;
}

/* execv/execve: replaces the process; returns the errno only when that failed. An
   environment count of -1 keeps the process's own environment. */
long RPyRT_ll_os_execv_raw(struct rpy_string *path, struct rpy_string *args, long nargs,
                           struct rpy_string *env, long nenv) {
    char *p = rpy_cpath(path);
    if (!p)
        return EINVAL;
    char **argv = nul_entries(args, nargs);
    if (nenv < 0) {
        execv(p, argv);
    } else {
        char **envp = nul_entries(env, nenv);
        execve(p, argv, envp);
        free(envp);
    }
    long e = (long)errno;
    free(argv);
    free(p);
    return e;
}

long RPyRT_ll_os_nice(long inc) {
    /* -1 is also a valid niceness: errno tells an error apart */
    errno = 0;
    int r = nice((int)inc);
    if (r == -1 && errno != 0)
        rpy_raise_oserror(errno);
    return r;
}

long RPyRT_ll_os_getppid(void) { return (long)getppid(); }
long RPyRT_ll_os_getpgrp(void) { return (long)getpgrp(); }

long RPyRT_ll_os_setsid(void) {
    pid_t r = setsid();
    check((int)r);
    return (long)r;
}

unsigned long RPyRT_ll_os_getuid(void) { return (unsigned long)getuid(); }
unsigned long RPyRT_ll_os_geteuid(void) { return (unsigned long)geteuid(); }
unsigned long RPyRT_ll_os_getgid(void) { return (unsigned long)getgid(); }
unsigned long RPyRT_ll_os_getegid(void) { return (unsigned long)getegid(); }
