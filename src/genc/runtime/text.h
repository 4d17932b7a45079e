/* text.h: the C runtime functions of text, numbers and the OS (text.c).
 *
 * One function per RuntimeFn of src/lltypesystem/runtime.rs, named RPyRT_<name>; the
 * LLInterpreter's implementation (src/llinterp/runtime/) is the specification of each.
 * Naming rules beyond RPyRT_<name> (see the report of the helper that wrote this file):
 *   <name>_u        the unicode variant of a text function (an argument or the result is
 *                   unicode instead of str); the algorithms are shared (a width parameter)
 *   <name>__<const> a Void name constant argument folded into the name (ll_math__sqrt)
 *   <name>_<n>      the variant with n arguments when the RTyper calls one function with
 *                   two arities (ll_float_format(x, code, prec) / ll_float_format_4(…, flags))
 * A function that builds a tuple takes the tuple's type id last.
 * Raising functions set the exception with rpy_raise_std() and return 0 / NULL.
 */
#ifndef RPY_TEXT_H
#define RPY_TEXT_H

#include <math.h>
#include "rpy.h"

/* ---- the OS, the clock, print ------------------------------------------------------- */
long RPyRT_ll_os_write(long fd, struct rpy_string *s);
struct rpy_string *RPyRT_ll_os_read(long fd, long n);
long RPyRT_ll_os_open(struct rpy_string *path, long flags, long mode);
void RPyRT_ll_os_close(long fd);
long RPyRT_ll_os_lseek(long fd, long pos, long how);
struct rpy_string *RPyRT_ll_os_listdir_raw(struct rpy_string *path);
double RPyRT_ll_os_loadavg_item(long i);
/* os.c */
void RPyRT_ll_os_unlink(struct rpy_string *path);
void RPyRT_ll_os_rmdir(struct rpy_string *path);
void RPyRT_ll_os_mkdir(struct rpy_string *path, long mode);
void RPyRT_ll_os_rename(struct rpy_string *from, struct rpy_string *to);
void RPyRT_ll_os_link(struct rpy_string *from, struct rpy_string *to);
void RPyRT_ll_os_symlink(struct rpy_string *from, struct rpy_string *to);
void RPyRT_ll_os_chdir(struct rpy_string *path);
long RPyRT_ll_os_getpid(void);
struct rpy_string *RPyRT_ll_os_getcwd(void);
struct rpy_string *RPyRT_ll_os_strerror(long e);
bool RPyRT_ll_os_isatty(long fd);
long RPyRT_ll_os_dup(long fd);
long RPyRT_ll_os_fork(void);
long RPyRT_ll_os_waitpid_raw(long pid, long options);
void RPyRT_ll_os_exit(long status);
void RPyRT_ll_os_dup2(long fd, long newfd);
long RPyRT_ll_os_kill(long pid, long sig);
long RPyRT_ll_os_pipe_raw(void);
void RPyRT_ll_os_fsync(long fd);
bool RPyRT_ll_os_access(struct rpy_string *path, long mode);
long RPyRT_ll_os_umask(long mask);
void RPyRT_ll_debug_fatalerror(struct rpy_string *msg, long traceback);
void RPyRT_ll_debug_print_line(struct rpy_string *line);
void RPyRT_ll_debug_start(struct rpy_string *category);
void RPyRT_ll_debug_stop(struct rpy_string *category);
bool RPyRT_ll_debug_have_prints(void);
void RPyRT_ll_debug_flush(void);
double RPyRT_ll_os_times_item(long i);
void RPyRT_ll_os_chmod(struct rpy_string *path, long mode);
struct rpy_string *RPyRT_ll_os_readlink(struct rpy_string *path);
void RPyRT_ll_os_ftruncate(long fd, long length);
struct rpy_string *RPyRT_ll_os_ttyname(long fd);
struct rpy_string *RPyRT_ll_os_getlogin(void);
long RPyRT_ll_os_system(struct rpy_string *command);
long RPyRT_ll_os_execv_raw(struct rpy_string *path, struct rpy_string *args, long nargs,
                           struct rpy_string *env, long nenv);
long RPyRT_ll_os_nice(long inc);
long RPyRT_ll_os_getppid(void);
long RPyRT_ll_os_getpgrp(void);
long RPyRT_ll_os_setsid(void);
unsigned long RPyRT_ll_os_getuid(void);
unsigned long RPyRT_ll_os_geteuid(void);
unsigned long RPyRT_ll_os_getgid(void);
unsigned long RPyRT_ll_os_getegid(void);
bool RPyRT_ll_os_path_exists(struct rpy_string *path);
bool RPyRT_ll_os_path_isdir(struct rpy_string *path);
bool RPyRT_ll_os_path_isfile(struct rpy_string *path);
long RPyRT_ll_os_stat_int(struct rpy_string *path, long i);
double RPyRT_ll_os_stat_float(struct rpy_string *path, long i);
long RPyRT_ll_os_fstat_int(long fd, long i);
double RPyRT_ll_os_fstat_float(long fd, long i);
struct rpy_string *RPyRT_ll_os_environ_get(struct rpy_string *key);
struct rpy_string *RPyRT_ll_os_environ_getitem(struct rpy_string *key);
void RPyRT_ll_os_environ_setitem(struct rpy_string *key, struct rpy_string *value);
void RPyRT_ll_os_environ_delitem(struct rpy_string *key);
struct rpy_string *RPyRT_ll_os_environ_raw(void);
/* text.c's own helpers, for os.c: a str copied from a C buffer; a path as a malloc'ed C
 * string (NULL with OSError set when it holds a NUL) */
struct rpy_string *rpy_mkstr(const char *buf, long n);
char *rpy_cpath(struct rpy_string *path);
double RPyRT_ll_time_time(void);
double RPyRT_ll_time_clock(void);
void RPyRT_ll_time_sleep(double secs);
void RPyRT_ll_print_item(struct rpy_string *s);
void RPyRT_ll_print_newline(void);

/* ---- numbers to text and back --------------------------------------------------------- */
struct rpy_string *RPyRT_ll_float_str(double x);
struct rpy_string *RPyRT_ll_float_repr(double x);
struct rpy_string *RPyRT_ll_float_format(double x, unsigned char code, long prec);
struct rpy_string *RPyRT_ll_float_format_4(double x, unsigned char code, long prec,
                                           long flags);
double RPyRT_ll_str_to_float(struct rpy_string *s, long base);

/* ---- float arithmetic; math (math.c) ----------------------------------------------------------- */
double RPyRT_ll_float_pow(double x, double y);
double RPyRT_ll_float_floordiv(double x, double y);
double RPyRT_ll_float_mod(double x, double y);

bool RPyRT_ll_math__isinf(double x);
bool RPyRT_ll_math__isnan(double x);
bool RPyRT_ll_math__isfinite(double x);
/* results: a GcStruct tuple { hdr; double item0; double item1 } of type id tuple_tid */
void *RPyRT_ll_math__modf(double x, uint32_t tuple_tid);
/* results: a GcStruct tuple { hdr; double item0; long item1 } of type id tuple_tid */
void *RPyRT_ll_math__frexp(double x, uint32_t tuple_tid);
double RPyRT_ll_math__sqrt(double x);
double RPyRT_ll_math__log(double x);
double RPyRT_ll_math__log_2(double x, double base);
double RPyRT_ll_math__log10(double x);
double RPyRT_ll_math__log1p(double x);
double RPyRT_ll_math__exp(double x);
double RPyRT_ll_math__pow(double x, double y);
double RPyRT_ll_math__sin(double x);
double RPyRT_ll_math__cos(double x);
double RPyRT_ll_math__tan(double x);
double RPyRT_ll_math__asin(double x);
double RPyRT_ll_math__acos(double x);
double RPyRT_ll_math__atan(double x);
double RPyRT_ll_math__atan2(double y, double x);
double RPyRT_ll_math__sinh(double x);
double RPyRT_ll_math__cosh(double x);
double RPyRT_ll_math__tanh(double x);
double RPyRT_ll_math__asinh(double x);
double RPyRT_ll_math__acosh(double x);
double RPyRT_ll_math__atanh(double x);
double RPyRT_ll_math__expm1(double x);
double RPyRT_ll_math__floor(double x);
double RPyRT_ll_math__ceil(double x);
double RPyRT_ll_math__fabs(double x);
double RPyRT_ll_math__fmod(double x, double y);
double RPyRT_ll_math__hypot(double x, double y);
double RPyRT_ll_math__ldexp(double x, double e);
/* inline, as the reference calls the C library's copysign directly: the C compiler folds
   it where the sign is a constant (a NaN written `HUGE_VAL/HUGE_VAL`) */
static inline double RPyRT_ll_math__copysign(double x, double y) { return copysign(x, y); }
double RPyRT_ll_math__trunc(double x);

#endif
