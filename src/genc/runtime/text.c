/* text.c: the runtime functions of text, numbers and the OS, in C.
 *
 * The specification of every function is the LLInterpreter's implementation
 * (src/llinterp/runtime/{mod.rs,text.rs}, src/objspace/format.rs for float formatting):
 * the same arguments, results, exceptions and text, byte for byte, including its quirks
 * (kept on purpose so a compiled program prints what `rpy-lsp run` prints).
 *
 * str and unicode share one implementation: a text object is read through its width `w`
 * (1 byte per character for rpy_string, 4 for rpy_unicode); both layouts have their items
 * at the same offset.
 *
 * GC discipline: every allocation may move objects. A function computes the size of its
 * result first, pushes the GC pointers it still needs on the shadow stack, allocates,
 * and reads them back from the stack before touching them again.
 */
/* POSIX (read, write, open, clock_gettime) whatever -std the program is compiled with,
 * and getloadavg() */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

_Static_assert(offsetof(struct rpy_string, items) == offsetof(struct rpy_unicode, items),
               "str and unicode must have their items at the same offset");
_Static_assert(offsetof(struct rpy_string, length) == offsetof(struct rpy_unicode, length),
               "str and unicode must have their length at the same offset");

/* ---- building strings ---------------------------------------------------------------- */

/* a new str holding a copy of a C buffer (not GC memory, so nothing to root) */
static struct rpy_string *mkstr(const char *buf, long n) {
    struct rpy_string *r = rpy_gc_malloc_varsize(rpy_tid_str, n);
    if (r && n > 0)
        memcpy(r->items, buf, (size_t)n);
    return r;
}


/* ---- the OS, the clock, print ----------------------------------------------------------- */

/* writes everything (the LLInterpreter writes with write_all); OSError on failure */
static bool write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += k;
        n -= (size_t)k;
    }
    return true;
}

long RPyRT_ll_os_write(long fd, struct rpy_string *s) {
    /* the bytes are copied out first: write() does not allocate, but keeping no GC
     * pointer across a system call is simplest to reason about */
    long n = s->length;
    if (!write_all((int)fd, s->items, (size_t)n)) {
        rpy_raise_oserror(errno);
        return 0;
    }
    return n;
}

struct rpy_string *RPyRT_ll_os_read(long fd, long n) {
    if (n < 0)
        n = 0;
    /* read into a C buffer first: the result's size is only known afterwards */
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf) {
        rpy_raise_std(RPY_EXC_MemoryError);
        return NULL;
    }
    ssize_t got;
    do {
        got = read((int)fd, buf, (size_t)n);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        int e = errno;
        free(buf);
        rpy_raise_oserror(e);
        return NULL;
    }
    struct rpy_string *r = mkstr((const char *)buf, (long)got);
    free(buf);
    return r;
}

/* a path as a C string (malloc'ed): NULL with OSError raised when it holds a NUL (it
 * cannot name a file), or MemoryError */
static char *cpath(struct rpy_string *path) {
    long n = path->length;
    if (memchr(path->items, 0, (size_t)n)) {
        rpy_raise_oserror(0);
        return NULL;
    }
    char *p = malloc((size_t)n + 1);
    if (!p) {
        rpy_raise_std(RPY_EXC_MemoryError);
        return NULL;
    }
    memcpy(p, path->items, (size_t)n);
    p[n] = 0;
    return p;
}

long RPyRT_ll_os_open(struct rpy_string *path, long flags, long mode) {
    char *p = cpath(path);
    if (!p)
        return 0;
    int fd;
    do {
        fd = open(p, (int)flags, (mode_t)mode);
    } while (fd < 0 && errno == EINTR);
    int e = errno;
    free(p);
    if (fd < 0) {
        rpy_raise_oserror(e);
        return 0;
    }
    return fd;
}

void RPyRT_ll_os_close(long fd) {
    if (close((int)fd) < 0)
        rpy_raise_oserror(errno);
}

/* the names of a directory (not . and ..), each followed by a NUL */
struct rpy_string *RPyRT_ll_os_listdir_raw(struct rpy_string *path) {
    char *p = cpath(path);
    if (!p)
        return NULL;
    DIR *d = opendir(p);
    int err = errno;
    free(p);
    if (!d) {
        rpy_raise_oserror(err);
        return NULL;
    }
    size_t cap = 256, len = 0;
    char *buf = malloc(cap);
    struct dirent *e;
    while (buf && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = strlen(e->d_name) + 1;
        if (len + n > cap) {
            while (len + n > cap)
                cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        memcpy(buf + len, e->d_name, n);
        len += n;
    }
    closedir(d);
    if (!buf) {
        rpy_raise_std(RPY_EXC_MemoryError);
        return NULL;
    }
    struct rpy_string *r = mkstr(buf, (long)len);
    free(buf);
    return r;
}

double RPyRT_ll_os_loadavg_item(long i) {
    double l[3];
    if (getloadavg(l, 3) != 3 || i < 0 || i > 2) {
        rpy_raise_oserror(0);
        return 0.0;
    }
    return l[i];
}

long RPyRT_ll_os_lseek(long fd, long pos, long how) {
    off_t r = lseek((int)fd, (off_t)pos, (int)how);
    if (r < 0) {
        rpy_raise_oserror(errno);
        return 0;
    }
    return (long)r;
}

double RPyRT_ll_time_time(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* time.clock() is the time elapsed since the program started (as the LLInterpreter
 * measures it): the start is taken before main() runs */
static struct timespec clock_start;
__attribute__((constructor)) static void clock_init(void) {
    clock_gettime(CLOCK_MONOTONIC, &clock_start);
}

double RPyRT_ll_time_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)(ts.tv_sec - clock_start.tv_sec) +
           (double)(ts.tv_nsec - clock_start.tv_nsec) * 1e-9;
}

void RPyRT_ll_time_sleep(double secs) {
    if (!(secs > 0.0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)secs;
    ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* The line being printed: `print a, b` appends "a " then "b ", and the newline replaces
 * the last space. Plain malloc memory: it holds bytes, not GC pointers. */
static unsigned char *print_buf;
static size_t print_len, print_cap;

static void print_append(const unsigned char *p, size_t n) {
    if (print_len + n > print_cap) {
        size_t cap = print_cap ? print_cap : 128;
        while (cap < print_len + n)
            cap *= 2;
        unsigned char *b = realloc(print_buf, cap);
        if (!b)
            rpy_fatal("MemoryError");
        print_buf = b;
        print_cap = cap;
    }
    if (n > 0)
        memcpy(print_buf + print_len, p, n);
    print_len += n;
}

void RPyRT_ll_print_item(struct rpy_string *s) {
    if (s)
        print_append(s->items, (size_t)s->length);
    else
        print_append((const unsigned char *)"None", 4);
    print_append((const unsigned char *)" ", 1);
}

void RPyRT_ll_print_newline(void) {
    if (print_len > 0)
        print_buf[print_len - 1] = '\n';
    else
        print_append((const unsigned char *)"\n", 1);
    /* written with os.write, as the reference's rpython_print_newline does: a failure
     * (fd 1 closed) raises OSError; the line is dropped either way */
    size_t n = print_len;
    print_len = 0;
    if (!write_all(1, print_buf, n))
        rpy_raise_oserror(errno);
}

/* rlib.debug.fatalerror[_notb] and llop.debug_fatalerror: the message on stderr, then
 * abort() (134); a pending print line is lost, as in the reference's binary */
void RPyRT_ll_debug_fatalerror(struct rpy_string *msg, long traceback) {
    if (traceback)
        (void)write_all(2, (const unsigned char *)"RPython traceback:\n", 19);
    (void)write_all(2, (const unsigned char *)msg->items, msg->length);
    (void)write_all(2, (const unsigned char *)"\n", 1);
    abort();
}

/* ---- numbers to text ------------------------------------------------------------------------ */

/* inf, -inf and nan as the reference spells them (never "-nan"); NULL for finite x */
static const char *special_float(double x, bool upper) {
    if (isnan(x))
        return upper ? "NAN" : "nan";
    if (isinf(x))
        return x > 0 ? (upper ? "INF" : "inf") : (upper ? "-INF" : "-inf");
    return NULL;
}

/* Big enough for "%.400f" of the largest double (309 digits, the point, 400 decimals)
 * and every other format below. */
#define FBUF 1100

/* The shortest digits that read back as |x| (x finite, non-zero), the closest to x of
 * those: digits into `digits` (NUL-terminated, no trailing zeros), the decimal exponent
 * into *decpt (the value is 0.d1d2d3... * 10^decpt). This is what Rust's `{:e}` gives,
 * which the LLInterpreter's repr() uses. */
static void shortest_digits(double x, char *digits, int *decpt) {
    double ax = fabs(x);
    char buf[64];
    /* Precision p tried by printing the correctly rounded p digits and reading them back.
     * For a normal double, 15 digits never lose the closest shorter representation
     * (half an ulp is smaller than half the spacing of 15-digit decimals), so the
     * search starts there; subnormals have fewer bits and are searched from 1. */
    int p = ax >= DBL_MIN ? 15 : 1;
    for (;; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, ax);
        bool ok = strtod(buf, NULL) == ax;
        if (!ok && p == 16) {
            /* at a power of two the interval of values reading back as x is wider above
             * than below: the closest 16 digits may miss it while their neighbour above
             * (or below) is inside; they are then the shortest */
            char *e = strchr(buf, 'e');
            int ex = atoi(e + 1);
            char dig[20];
            int k = 0;
            for (char *q = buf; q < e; q++)
                if (*q >= '0' && *q <= '9')
                    dig[k++] = *q;
            dig[k] = 0;
            unsigned long long m = strtoull(dig, NULL, 10);
            for (int delta = 1; delta >= -1 && !ok; delta -= 2) {
                unsigned long long c = m + (unsigned long long)(long long)delta;
                if (c < 1000000000000000ULL || c > 9999999999999999ULL)
                    continue;
                char cand[64];
                snprintf(cand, sizeof cand, "%llue%d", c, ex - 15);
                if (strtod(cand, NULL) == ax) {
                    /* rebuild "d.ddd...e+X" from the candidate's 16 digits */
                    char cd[24];
                    snprintf(cd, sizeof cd, "%llu", c);
                    snprintf(buf, sizeof buf, "%c.%se%+d", cd[0], cd + 1, ex);
                    ok = true;
                }
            }
        }
        if (ok || p >= 17)
            break;
    }
    char *e = strchr(buf, 'e');
    int k = 0;
    for (char *q = buf; q < e; q++)
        if (*q >= '0' && *q <= '9')
            digits[k++] = *q;
    while (k > 1 && digits[k - 1] == '0')
        k--;
    digits[k] = 0;
    *decpt = atoi(e + 1) + 1;
}

/* Python 2.7's repr(float): the shortest digits, in exponent notation unless the decimal
 * point falls in (-4, 16]; a fixed notation always has a fractional part ("1.0"). The
 * exponent has at least two digits ("1e+16"). */
static int float_repr_buf(double x, char *out) {
    const char *sp = special_float(x, false);
    if (sp)
        return snprintf(out, FBUF, "%s", sp);
    if (x == 0.0)
        return snprintf(out, FBUF, "%s", signbit(x) ? "-0.0" : "0.0");
    char digits[24];
    int decpt;
    shortest_digits(x, digits, &decpt);
    int nd = (int)strlen(digits);
    int n = 0;
    if (x < 0)
        out[n++] = '-';
    if (!(-4 < decpt && decpt <= 16)) {
        out[n++] = digits[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, digits + 1, (size_t)nd - 1);
            n += nd - 1;
        }
        int e = decpt - 1;
        n += snprintf(out + n, FBUF - (size_t)n, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -decpt; i++)
            out[n++] = '0';
        memcpy(out + n, digits, (size_t)nd);
        n += nd;
    } else {
        for (int i = 0; i < (decpt > nd ? decpt : nd); i++) {
            if (i == decpt)
                out[n++] = '.';
            out[n++] = i < nd ? digits[i] : '0';
        }
        if (decpt >= nd) {
            out[n++] = '.';
            out[n++] = '0';
        }
    }
    out[n] = 0;
    return n;
}

struct rpy_string *RPyRT_ll_float_repr(double x) {
    char buf[FBUF];
    int n = float_repr_buf(x, buf);
    return mkstr(buf, n);
}

/* The digits dtoa gives for a finite x (no trailing zeros; "0" for zero) and the position
 * of the decimal point: the shortest for 'r', n significant digits for 'e'/'g', n digits
 * after the point for 'f' (none at all when it rounds to zero). `digits` holds FBUF. */
static int dtoa_digits(double x, unsigned char code, int n, char *digits, int *decpt) {
    double ax = fabs(x);
    char buf[FBUF];
    int k = 0;
    if (ax == 0.0) {
        strcpy(digits, "0");
        *decpt = 1;
        return 1;
    }
    if (code == 'r') {
        shortest_digits(x, digits, decpt);
        return (int)strlen(digits);
    }
    if (code == 'f') {
        snprintf(buf, sizeof buf, "%.*f", n, ax);
        int dp = 0;
        bool seen_point = false;
        for (char *q = buf; *q; q++) {
            if (*q == '.') {
                seen_point = true;
                continue;
            }
            if (!seen_point)
                dp++;
            if (k == 0 && *q == '0') {
                dp--;
                continue;
            }
            digits[k++] = *q;
        }
        if (k == 0)
            dp = -n;
        *decpt = dp;
    } else {
        snprintf(buf, sizeof buf, "%.*e", n - 1, ax);
        char *e = strchr(buf, 'e');
        for (char *q = buf; q < e; q++)
            if (*q >= '0' && *q <= '9')
                digits[k++] = *q;
        *decpt = atoi(e + 1) + 1;
    }
    while (k > 0 && digits[k - 1] == '0')
        k--;
    if (k == 0 && code != 'f') {
        digits[k++] = '0';
        *decpt = 1;
    }
    digits[k] = 0;
    return k;
}

static int put_zeros(char *out, int n, int count) {
    for (int i = 0; i < count; i++)
        out[n++] = '0';
    return n;
}

/* rfloat.formatd(x, code, precision, flags) as the reference's dtoa formats it: 'e' 'f'
 * 'g' (and upper case) with a precision, any other code the shortest repr without its
 * ".0"; flags 1 DTSF_SIGN (a '+'), 2 DTSF_ADD_DOT_0 (".0" on an integral value, which 'g'
 * at exactly `precision` digits writes with an exponent instead), 4 DTSF_ALT ('g' keeps
 * its trailing zeros, every code its decimal point), 8 DTSF_CUT_EXP_0 (no leading zero in
 * a one-digit exponent). `out` holds 2 * FBUF. */
static int formatd_buf(double x, unsigned char code, long prec, long flags, char *out) {
    bool upper = code == 'E' || code == 'F' || code == 'G';
    unsigned char lc = upper ? (unsigned char)(code + ('a' - 'A')) : code;
    int n = 0;
    if (isnan(x))
        return snprintf(out, FBUF, "%s", upper ? "NAN" : "nan");
    if (isinf(x)) {
        const char *s = x < 0 ? "-inf" : (flags & 1) ? "+inf" : "inf";
        for (; *s; s++)
            out[n++] = upper ? (char)(*s + ('A' - 'a') * (*s >= 'a' && *s <= 'z')) : *s;
        out[n] = 0;
        return n;
    }
    if (prec < 0)
        prec = 0;
    if (prec > 400)
        prec = 400;
    int nd;
    switch (lc) {
    case 'e':
        nd = (int)prec + 1;
        break;
    case 'f':
        nd = (int)prec;
        break;
    case 'g':
        nd = prec < 1 ? 1 : (int)prec;
        break;
    default:
        lc = 'r';
        nd = 0;
        break;
    }
    char digits[FBUF];
    int decpt;
    int buflen = dtoa_digits(x, lc, nd, digits, &decpt);
    bool use_exp = false;
    int vend = buflen;
    if (lc == 'e') {
        use_exp = true;
        vend = nd;
    } else if (lc == 'f') {
        vend = decpt + nd;
    } else if (lc == 'g') {
        use_exp = decpt <= -4 || decpt > nd || ((flags & 2) && decpt == nd);
        if (flags & 4)
            vend = nd;
    } else {
        use_exp = decpt <= -4 || decpt > 16;
    }
    int exp = decpt - 1;
    if (use_exp)
        decpt = 1;
    int vstart = decpt <= 0 ? decpt - 1 : 0;
    if (vend <= decpt)
        vend = (!use_exp && (flags & 2)) ? decpt + 1 : decpt;
    if (signbit(x))
        out[n++] = '-';
    else if (flags & 1)
        out[n++] = '+';
    int body = n;
    if (decpt <= 0) {
        n = put_zeros(out, n, decpt - vstart);
        out[n++] = '.';
        n = put_zeros(out, n, -decpt);
    } else {
        n = put_zeros(out, n, -vstart);
    }
    if (0 < decpt && decpt <= buflen) {
        memcpy(out + n, digits, (size_t)decpt);
        n += decpt;
        out[n++] = '.';
        memcpy(out + n, digits + decpt, (size_t)(buflen - decpt));
        n += buflen - decpt;
    } else {
        memcpy(out + n, digits, (size_t)buflen);
        n += buflen;
    }
    if (buflen < decpt) {
        n = put_zeros(out, n, decpt - buflen);
        out[n++] = '.';
        n = put_zeros(out, n, vend - decpt);
    } else {
        n = put_zeros(out, n, vend - buflen);
    }
    if (!(flags & 4) && n > body && out[n - 1] == '.')
        n--;
    if (use_exp) {
        int ae = exp < 0 ? -exp : exp;
        n += sprintf(out + n, "%c%c%s%d", upper ? 'E' : 'e', exp < 0 ? '-' : '+',
                     (ae < 10 && !(flags & 8)) ? "0" : "", ae);
    }
    out[n] = 0;
    return n;
}

struct rpy_string *RPyRT_ll_float_format(double x, unsigned char code, long prec) {
    char buf[2 * FBUF];
    int n = formatd_buf(x, code, prec, 0, buf);
    return mkstr(buf, n);
}

struct rpy_string *RPyRT_ll_float_format_4(double x, unsigned char code, long prec,
                                           long flags) {
    char buf[2 * FBUF];
    int n = formatd_buf(x, code, prec, flags, buf);
    return mkstr(buf, n);
}

/* str(float) of the RTyper: "%.6f" */
struct rpy_string *RPyRT_ll_float_str(double x) { return RPyRT_ll_float_format(x, 'f', 6); }


/* ---- text to numbers ------------------------------------------------------------------------ */

/* float(s): spaces (only ' ') around a decimal number made of digits, signs, '.', 'e';
 * no inf/nan spellings; the whole text must be the number. */
double RPyRT_ll_str_to_float(struct rpy_string *s, long base) {
    (void)base; /* the RTyper passes int()'s base to float() too; it means nothing here */
    long i = 0, n = s->length;
    const unsigned char *p = s->items;
    while (i < n && p[i] == ' ')
        i++;
    while (n > i && p[n - 1] == ' ')
        n--;
    bool digit = false;
    for (long k = i; k < n; k++) {
        unsigned char c = p[k];
        if (c >= '0' && c <= '9')
            digit = true;
        else if (!strchr("+-.eE", c) || c == 0)
            goto error;
    }
    if (!digit)
        goto error;
    /* strtod's grammar restricted to these characters is the one of Rust's f64 parser
     * (optional sign, digits with an optional point, an optional signed exponent) */
    char buf[64];
    char *tmp = n - i < (long)sizeof buf ? buf : malloc((size_t)(n - i) + 1);
    if (!tmp) {
        rpy_raise_std(RPY_EXC_MemoryError);
        return 0.0;
    }
    memcpy(tmp, p + i, (size_t)(n - i));
    tmp[n - i] = 0;
    char *end;
    double v = strtod(tmp, &end);
    bool ok = end == tmp + (n - i) && end != tmp;
    if (tmp != buf)
        free(tmp);
    if (ok)
        return v;
error:
    rpy_raise_std(RPY_EXC_ValueError);
    return 0.0;
}

/* ---- float arithmetic and math ------------------------------------------------------------ */

double RPyRT_ll_float_floordiv(double x, double y) {
    if (y == 0.0) {
        rpy_raise_std(RPY_EXC_ZeroDivisionError);
        return 0.0;
    }
    return floor(x / y);
}

double RPyRT_ll_float_mod(double x, double y) {
    if (y == 0.0) {
        rpy_raise_std(RPY_EXC_ZeroDivisionError);
        return 0.0;
    }
    double m = fmod(x, y);
    /* the result takes the divisor's sign, as in Python */
    if (m != 0.0 && ((m < 0.0) != (y < 0.0)))
        m += y;
    return m;
}

bool RPyRT_ll_math__isinf(double x) { return isinf(x); }
bool RPyRT_ll_math__isnan(double x) { return isnan(x); }
bool RPyRT_ll_math__isfinite(double x) { return isfinite(x); }

struct rpy_tuple_ff {
    rpy_hdr hdr;
    double item0, item1;
};
struct rpy_tuple_fl {
    rpy_hdr hdr;
    double item0;
    long item1;
};

void *RPyRT_ll_math__modf(double x, uint32_t tuple_tid) {
    struct rpy_tuple_ff *t = rpy_gc_malloc_fixed(tuple_tid);
    if (!t)
        return NULL;
    double ip = trunc(x);
    /* an infinity is all integral part: the fraction is a zero of its sign */
    t->item0 = copysign(isinf(x) ? 0.0 : x - ip, x);
    t->item1 = ip;
    return t;
}

void *RPyRT_ll_math__frexp(double x, uint32_t tuple_tid) {
    struct rpy_tuple_fl *t = rpy_gc_malloc_fixed(tuple_tid);
    if (!t)
        return NULL;
    /* C's frexp, as the LLInterpreter (zeros, infinities and nan: exponent 0) */
    int e = 0;
    double m = frexp(x, &e);
    t->item0 = m;
    t->item1 = e;
    return t;
}


struct rpy_string *rpy_mkstr(const char *buf, long n) { return mkstr(buf, n); }
char *rpy_cpath(struct rpy_string *path) { return cpath(path); }
