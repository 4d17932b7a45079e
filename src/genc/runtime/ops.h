/* ops.h: the low-level operations that are more than one C operator: Python's floor
 * division and modulo, shifts defined for every count, and the operations that raise
 * (`_ovf`: OverflowError, `_zer`: ZeroDivisionError) by setting the exception state.
 * Integers wrap (the program is compiled with -fwrapv), as the LLInterpreter's do. */
#ifndef RPY_OPS_H
#define RPY_OPS_H

#include <math.h>

#define RPY_ABS(x) ((x) < 0 ? -(x) : (x))

/* is the raised class (rpy_exc_type, a VT *) within a handler's class-id range */
#define RPY_EXC_MATCHES(VT, MIN, MAX) \
    (((VT *)rpy_exc_type)->subclassrange_min >= (MIN) && \
     ((VT *)rpy_exc_type)->subclassrange_min < (MAX))

/* Python's floor division and modulo over C's, for a signed type T (long; __int128_t for
 * r_longlonglong): the most negative value by -1 (without ovfcheck) traps in the C
 * division, as the reference's `x / y` does (SIGFPE). */
#define RPY_FLOOR_DIVMOD(NAME, T)                                                \
    static inline T NAME##_floordiv(T x, T y) {                                  \
        T q = x / y;                                                             \
        if ((x % y != 0) && ((x < 0) != (y < 0))) q -= 1;                        \
        return q;                                                                \
    }                                                                            \
    static inline T NAME##_floormod(T x, T y) {                                  \
        T r = x % y;                                                             \
        if (r != 0 && ((r < 0) != (y < 0))) r += y;                              \
        return r;                                                                \
    }                                                                            \
    static inline T NAME##_floordiv_zer(T x, T y) {                              \
        if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }      \
        return NAME##_floordiv(x, y);                                            \
    }                                                                            \
    static inline T NAME##_floormod_zer(T x, T y) {                              \
        if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }      \
        return NAME##_floormod(x, y);                                            \
    }
RPY_FLOOR_DIVMOD(rpy_int, long)
RPY_FLOOR_DIVMOD(rpy_lllong, __int128_t)
static inline long rpy_int_floordiv_ovf_zer(long x, long y) {
    if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }
    if (y == -1 && x == (-9223372036854775807L - 1)) {
        rpy_raise_std(RPY_EXC_OverflowError); return 0;
    }
    return rpy_int_floordiv(x, y);
}
static inline long rpy_int_floormod_ovf_zer(long x, long y) {
    if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }
    if (y == -1 && x == (-9223372036854775807L - 1)) {
        rpy_raise_std(RPY_EXC_OverflowError); return 0;
    }
    return rpy_int_floormod(x, y);
}
static inline unsigned long rpy_uint_floordiv_zer(unsigned long x, unsigned long y) {
    if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }
    return x / y;
}
static inline unsigned long rpy_uint_mod_zer(unsigned long x, unsigned long y) {
    if (y == 0) { rpy_raise_std(RPY_EXC_ZeroDivisionError); return 0; }
    return x % y;
}
/* Shifts: the reference emits C's `x << s` with its range check off (-O2), so a count
 * outside 0..63 does what the x86-64 instructions do, which take it modulo 64. */
static inline long rpy_int_lshift(long x, long s) {
    return (long)((unsigned long)x << (s & 63));
}
static inline long rpy_int_rshift(long x, long s) {
    return x >> (s & 63);
}
static inline unsigned long rpy_uint_lshift(unsigned long x, long s) {
    return x << (s & 63);
}
static inline unsigned long rpy_uint_rshift(unsigned long x, long s) {
    return x >> (s & 63);
}
/* the same over __int128_t (r_longlonglong): a count is taken modulo 128, as gcc's code
 * for a 128-bit shift by a variable count does */
static inline __int128_t rpy_lllong_lshift(__int128_t x, long s) {
    return (__int128_t)((__uint128_t)x << (s & 127));
}
static inline __int128_t rpy_lllong_rshift(__int128_t x, long s) {
    return x >> (s & 127);
}
/* raw memory read and written as numbers at any address (a `char` buffer viewed through
 * rffi.cast(SIGNEDP, rffi.ptradd(buf, addr)) may be misaligned): through memcpy */
#define RPY_RAW_ACCESS(NAME, T) \
    static inline T rpy_raw_get_##NAME(const char *a) { T v; memcpy(&v, a, sizeof v); return v; } \
    static inline void rpy_raw_set_##NAME(char *a, T v) { memcpy(a, &v, sizeof v); }
RPY_RAW_ACCESS(long, long)
RPY_RAW_ACCESS(ulong, unsigned long)
RPY_RAW_ACCESS(llong, long long)
RPY_RAW_ACCESS(ullong, unsigned long long)
RPY_RAW_ACCESS(double, double)
RPY_RAW_ACCESS(float, float)
RPY_RAW_ACCESS(u32, uint32_t)
RPY_RAW_ACCESS(int, int)
RPY_RAW_ACCESS(uint, unsigned int)
RPY_RAW_ACCESS(short, short)
RPY_RAW_ACCESS(ushort, unsigned short)

/* the bits of a double as a long and back (rlib.longlong2float), NaN payloads kept */
static inline long rpy_float_bits(double x) {
    long r;
    memcpy(&r, &x, sizeof r);
    return r;
}
static inline double rpy_float_from_bits(long x) {
    double r;
    memcpy(&r, &x, sizeof r);
    return r;
}
static inline long rpy_int_add_ovf(long x, long y) {
    long r;
    if (__builtin_add_overflow(x, y, &r)) { rpy_raise_std(RPY_EXC_OverflowError); return 0; }
    return r;
}
static inline long rpy_int_sub_ovf(long x, long y) {
    long r;
    if (__builtin_sub_overflow(x, y, &r)) { rpy_raise_std(RPY_EXC_OverflowError); return 0; }
    return r;
}
static inline long rpy_int_mul_ovf(long x, long y) {
    long r;
    if (__builtin_mul_overflow(x, y, &r)) { rpy_raise_std(RPY_EXC_OverflowError); return 0; }
    return r;
}
static inline long rpy_int_abs_ovf(long x) {
    if (x == (-9223372036854775807L - 1)) { rpy_raise_std(RPY_EXC_OverflowError); return 0; }
    return x < 0 ? -x : x;
}
static inline long rpy_int_lshift_ovf(long x, long s) {
    /* the reference's ll_int_lshift_ovf: (x << s) >> s must give x back */
    long r = rpy_int_lshift(x, s);
    if (rpy_int_rshift(r, s) != x) { rpy_raise_std(RPY_EXC_OverflowError); return 0; }
    return r;
}

/* math.sqrt: ValueError for a negative number (NaN goes through) */
static inline double rpy_math_sqrt(double x) {
    if (x < 0.0) { rpy_raise_std(RPY_EXC_ValueError); return 0.0; }
    return sqrt(x);
}

/* Raw memory (flavor='raw', and the buffers C functions see): allocated whole with
   calloc, never moved nor collected; a raw array's length is its first field. */
static inline void *rpy_raw_malloc(size_t size) {
    void *p = calloc(1, size);
    if (!p) rpy_fatal("MemoryError");
    return p;
}
static inline void *rpy_raw_malloc_array(size_t ofs_items, size_t itemsize, long length) {
    long *p = rpy_raw_malloc(ofs_items + (size_t)(length < 0 ? 0 : length) * itemsize);
    p[0] = length;
    return p;
}

#endif
