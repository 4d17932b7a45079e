/* gctest.h: what the GC test programs share (tests/gc_runtime.rs builds each of them
 * with src/genc/runtime/gc.c). Each program defines its own rpy_typeinfo[] and
 * rpy_static_gcobjs[]; this header gives them rpy_fatal, checks and helpers. */
#ifndef GCTEST_H
#define GCTEST_H

#include "rpy.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

/* no test type is a string (gc.c gives a string's type one more byte, its NUL) */
const uint32_t rpy_tid_str = UINT32_MAX;

void rpy_fatal(const char *name)
{
    fprintf(stderr, "Fatal RPython error: %s\n", name);
    exit(134);
}

/* gc.c raises MemoryError for an allocation past its limit; no test allocates that much,
 * so a raise here ends the test as a fatal error */
void rpy_raise_std(enum rpy_std_exc which)
{
    (void)which;
    rpy_fatal("MemoryError");
}

/* the object layouts every program's rpy_typeinfo[] describes (a linked node, an array of
 * pointers, an array of longs); a program adds its own beside them */
struct node {
    rpy_hdr hdr;
    long value;
    struct node *next;
};
struct ptrarray {
    rpy_hdr hdr;
    long length;
    void *items[];
};
struct longarray {
    rpy_hdr hdr;
    long length;
    long items[];
};

/* their rpy_typeinfo[] entries, for a program whose enum of type ids starts with T_NODE,
 * T_PTRARRAY, T_LONGARRAY */
__attribute__((unused)) static const long node_ptrs[] = {offsetof(struct node, next), -1};
__attribute__((unused)) static const long none[] = {-1};
__attribute__((unused)) static const long item0[] = {0, -1};
#define GCTEST_SHARED_TYPEINFO                                                            \
    [T_NODE] = {sizeof(struct node), 0, 0, node_ptrs, none},                              \
    [T_PTRARRAY] = {offsetof(struct ptrarray, items), sizeof(void *),                     \
                    offsetof(struct ptrarray, length), none, item0},                      \
    [T_LONGARRAY] = {offsetof(struct longarray, items), sizeof(long),                     \
                     offsetof(struct longarray, length), none, none}

#define CHECK(c) do { \
        if (!(c)) { \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            exit(1); \
        } \
    } while (0)

/* the harness sets GCTEST_SMALL under the stress mode and the sanitizers, where every
 * allocation costs a collection: the programs then scale their loops down */
static inline int gct_small(void)
{
    const char *s = getenv("GCTEST_SMALL");
    return s != NULL && s[0] == '1';
}

static inline long gct_scale(long normal, long small)
{
    return gct_small() ? small : normal;
}

static inline long gct_peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* KiB on Linux */
}

static unsigned long gct_rng = 88172645463325252ul;
static inline unsigned long gct_rand(void)
{
    gct_rng ^= gct_rng << 13;
    gct_rng ^= gct_rng >> 7;
    gct_rng ^= gct_rng << 17;
    return gct_rng;
}

#endif
