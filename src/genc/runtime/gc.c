/* gc.c: the garbage collector of built programs (interface in rpy.h).
 *
 * Default build: a precise, generational collector.
 *   - Young objects are bump-allocated in one nursery (4 MiB, or RPY_GC_NURSERY bytes).
 *     A minor collection copies the survivors out of it (roots: the shadow stack and the
 *     remembered set), leaving a forwarding pointer in the nursery copy, then scans the
 *     copies with an explicit grey stack (Cheney's algorithm, except that the to-space is
 *     not contiguous, so the queue of copies to scan is a stack of pointers).
 *   - The old generation does not move: every old object is its own malloc() block,
 *     listed in old_objs[] so that a mark-sweep major collection can free() the
 *     unreachable ones. Objects bigger than nursery/8 are allocated there directly.
 *   - A major collection runs when the old generation has grown past twice what
 *     survived the previous one (at least MAJOR_MIN bytes), so that a program that
 *     allocates forever with a bounded live set has a bounded footprint.
 *   - Identity hashes: an old or static object's hash derives from its address (it
 *     never moves). A young object's hash derives from (minor-collection count, offset
 *     in the nursery), which no other object ever gets; the object is flagged, and when
 *     it is copied out the value is stored in one extra word after its end.
 *   - Weak references (struct rpy_weakref): their referent is not traced. Each one is
 *     listed (young_weakrefs until it survives a minor collection, then old_weakrefs);
 *     after a minor collection has copied the survivors, a surviving young reference
 *     follows its referent's forwarding pointer or becomes NULL, and after the marking
 *     of a major collection an old reference to an unmarked object becomes NULL.
 *     (A reference is immutable and starts young, so an old one never points into the
 *     nursery.)
 *   - RPY_GC_STRESS=1: a minor collection before every allocation and a major one every
 *     RPY_GC_STRESS_MAJOR (default 1000) allocations; the nursery space of dead young
 *     objects is poisoned (and, under AddressSanitizer, made inaccessible) so that a GC
 *     pointer the program forgot to root fails loudly.
 *   - RPY_GC_VERBOSE=1: collection counts and sizes on stderr at exit.
 *
 * Built with -DRPY_GC_NONE: the same interface, no collection at all (--gc=none).
 *
 * GC-private bits of rpy_hdr.gcflags (rpy.h leaves all bits but 0x1 and 0x2 to us):
 */
/* mmap's MAP_ANONYMOUS and MAP_NORESERVE under -std=c99/c11 too; this must come
 * before any system header */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#define GCFLAG_VISITED   0x04u /* old object marked reachable by the current major GC */
#define GCFLAG_HASHTAKEN 0x08u /* young object whose identity hash was taken */
#define GCFLAG_HASHFIELD 0x10u /* old object with its identity hash in an extra word */
#define GCFLAG_FORWARDED 0x20u /* nursery copy already copied out: see forward_of() */

#include "rpy.h"

#include <stdio.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define NURSERY_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define NURSERY_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define NURSERY_POISON(p, n) ((void)(p), (void)(n))
#define NURSERY_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0 /* not everywhere: then the untouched slots are only reserved */
#endif

#define ROUND8(n) (((n) + 7) & ~(size_t)7)

/* ---- the shadow stack (shared by both builds) ----------------------------------------
 * A fixed array of SHADOW_SLOTS slots followed by inaccessible guard pages: the
 * RPY_PUSH_ROOT macro has no check, so a runaway recursion that overflows the array
 * faults on the guard instead of overwriting other data. Every allocation also checks
 * the depth against a limit SHADOW_SLACK slots before the end, which turns the common
 * case (a recursion that allocates) into a clean fatal error. */
#define SHADOW_SLOTS (1L << 20)
#define SHADOW_SLACK 4096
#define SHADOW_GUARD (256 * 1024)

void **rpy_root_base, **rpy_root_top;
static void **root_limit;

static void shadowstack_init(void)
{
    size_t bytes = (size_t)SHADOW_SLOTS * sizeof(void *);
    /* MAP_NORESERVE: untouched slots cost no memory */
    char *p = mmap(NULL, bytes + SHADOW_GUARD, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        rpy_fatal("MemoryError");
    if (mprotect(p + bytes, SHADOW_GUARD, PROT_NONE) != 0)
        rpy_fatal("MemoryError");
    rpy_root_base = rpy_root_top = (void **)p;
    root_limit = rpy_root_base + (SHADOW_SLOTS - SHADOW_SLACK);
}

static inline void check_shadowstack(void)
{
    if (__builtin_expect(rpy_root_top > root_limit, 0))
        rpy_fatal("StackOverflow");
}

/* a bijective mix of a word: distinct identities keep distinct hashes, and the low bits
 * (zero in aligned addresses) vary, for hash tables that mask them */
static inline long hash_mix(uint64_t x)
{
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
    return (long)x;
}

/* A string is allocated with one more char than its length, zeroed, as the reference's
 * `extra_item_after_alloc`: its terminating NUL, which a program reads at `s[len(s)]`. */
static inline size_t str_extra(uint32_t tid)
{
    return tid == rpy_tid_str;
}

/* the size of an object from its type (and length), in the 8-byte units of the heap */
static inline size_t obj_size(const void *obj)
{
    const rpy_hdr *h = obj;
    const struct rpy_typeinfo *ti = &rpy_typeinfo[h->tid];
    size_t s = (size_t)ti->fixedsize;
    if (ti->itemsize)
        s += (size_t)ti->itemsize * (size_t)*(const long *)((const char *)obj + ti->ofs_length);
    return ROUND8(s + str_extra(h->tid));
}

/* the bytes a varsize object of `length` items needs, or a fatal error if absurd */
static size_t varsize_bytes(const struct rpy_typeinfo *ti, long length)
{
    if (length < 0)
        rpy_fatal("MemoryError");
    if (ti->itemsize && (unsigned long)length > (LONG_MAX / 2 - (unsigned long)ti->fixedsize) /
                                                    (unsigned long)ti->itemsize)
        rpy_fatal("MemoryError");
    return ROUND8((size_t)ti->fixedsize + (size_t)ti->itemsize * (size_t)length +
                  str_extra((uint32_t)(ti - rpy_typeinfo)));
}

/* The size past which an allocation fails, as in the LLInterpreter (1 TiB): the
 * reference's GC raises MemoryError when an object's size overflows or the system cannot
 * give it, an exception the program may catch ([0] * 2**60 under `except MemoryError`). */
#define RPY_MAX_ALLOCATION (1UL << 40)

/* whether a varsize object of `length` (>= 0) items exceeds RPY_MAX_ALLOCATION; then
 * MemoryError is raised and NULL returned */
static inline int varsize_too_big(const struct rpy_typeinfo *ti, long length)
{
    if (length < 0 || !ti->itemsize ||
        (unsigned long)length <= (RPY_MAX_ALLOCATION - (unsigned long)ti->fixedsize) /
                                     (unsigned long)ti->itemsize)
        return 0;
    rpy_raise_std(RPY_EXC_MemoryError);
    return 1;
}

static inline void check_tid(uint32_t tid)
{
    if (__builtin_expect((long)tid >= rpy_typeinfo_count, 0))
        rpy_fatal("GC: bad type id");
}

#ifdef RPY_GC_NONE
/* no nursery: the inline fast path of rpy.h always takes the slow path */
char *rpy_nursery_free, *rpy_nursery_limit;
/* ====================================================================================
 * --gc=none: bump allocation in big zeroed chunks, never freed.
 * ==================================================================================== */

#define NONE_CHUNK (1L << 20)
static char *none_free, *none_end;

void rpy_gc_init(void)
{
    shadowstack_init();
}

static void *none_alloc(size_t size)
{
    void *p;
    check_shadowstack();
    if (size > NONE_CHUNK / 4) {
        /* a big object gets its own block, so that a chunk is never mostly wasted */
        p = calloc(1, size);
        if (p == NULL)
            rpy_fatal("MemoryError");
        return p;
    }
    if ((size_t)(none_end - none_free) < size) {
        none_free = calloc(1, NONE_CHUNK);
        if (none_free == NULL)
            rpy_fatal("MemoryError");
        none_end = none_free + NONE_CHUNK;
    }
    p = none_free;
    none_free += size;
    return p;
}

void *rpy_gc_malloc_fixed(uint32_t tid)
{
    check_tid(tid);
    rpy_hdr *h = none_alloc(ROUND8((size_t)rpy_typeinfo[tid].fixedsize));
    h->tid = tid;
    return h;
}

void *rpy_gc_malloc_varsize(uint32_t tid, long length)
{
    check_tid(tid);
    const struct rpy_typeinfo *ti = &rpy_typeinfo[tid];
    if (varsize_too_big(ti, length))
        return NULL;
    char *p = none_alloc(varsize_bytes(ti, length));
    ((rpy_hdr *)p)->tid = tid;
    *(long *)(p + ti->ofs_length) = length;
    return p;
}

void rpy_gc_write_barrier_slow(void *obj)
{
    /* nothing to remember; clearing the flag keeps RPY_WB off this path next time */
    ((rpy_hdr *)obj)->gcflags &= ~RPY_GCFLAG_TRACK_YOUNG;
}

long rpy_gc_identityhash(void *obj)
{
    return hash_mix((uint64_t)(uintptr_t)obj);
}

void rpy_gc_collect(void)
{
}

void *rpy_weakref_create(uint32_t tid, void *obj)
{
    /* nothing is ever freed: the reference stays valid */
    struct rpy_weakref *w = rpy_gc_malloc_fixed(tid);
    w->referent = obj;
    return w;
}

#else
/* ====================================================================================
 * The generational collector.
 * ==================================================================================== */

/* 1 MiB: within 2x of the reference's peak memory on small programs, at most ~1.4x slower
 * than 4 MiB on allocation-heavy ones (benches/build.sh) */
#define NURSERY_DEFAULT (1L << 20)
#define NURSERY_MIN (64L << 10)
/* a young object needs room for the header and the forwarding pointer */
#define YOUNG_MIN_SIZE 16
/* what malloc() costs beyond the object, roughly, for the old generation's accounting */
#define MALLOC_OVERHEAD 16
#define MAJOR_MIN (16L << 20)
#define MAJOR_FACTOR 2

/* growable arrays of object pointers */
struct ptrvec {
    void **items;
    size_t n, cap;
};

static void ptrvec_grow(struct ptrvec *v)
{
    size_t cap = v->cap ? v->cap * 2 : 1024;
    void **items = realloc(v->items, cap * sizeof(void *));
    if (items == NULL)
        rpy_fatal("MemoryError");
    v->items = items;
    v->cap = cap;
}

static inline void ptrvec_push(struct ptrvec *v, void *p)
{
    if (__builtin_expect(v->n == v->cap, 0))
        ptrvec_grow(v);
    v->items[v->n++] = p;
}

/* the nursery: [nursery_start, nursery_end); allocation bumps rpy_nursery_free. Objects of
 * the current cycle (since the last minor collection) are in [cycle_start, rpy_nursery_free):
 * normally cycle_start == nursery_start, but the stress mode leaves the space of the
 * previous cycles poisoned until the nursery is full. Everything from rpy_nursery_free on
 * is zero. */
static char *nursery_start, *nursery_end, *cycle_start;
/* exported for the inline allocation fast path of rpy.h: the bump pointer, and the
 * limit it may reach (NULL while every allocation must take the slow path: stress) */
char *rpy_nursery_free, *rpy_nursery_limit;
static size_t nursery_size;
static size_t large_threshold;  /* objects of this size or more are allocated old */
static uint64_t minor_count;    /* minor collections done: part of young hashes */

static struct ptrvec old_objs;    /* every old (non-static) object */
static struct ptrvec young_weakrefs; /* weak references allocated since the last minor GC */
static struct ptrvec old_weakrefs;   /* weak references that survived one (or born old) */
static struct ptrvec remembered;  /* old/static objects that may point to young ones */
static struct ptrvec grey;        /* copies to scan (minor), marked objects to trace (major) */

static size_t old_bytes;        /* bytes of the old generation (with malloc overhead) */
static size_t major_threshold;  /* old_bytes that triggers a major collection */

static bool stress;
static unsigned long major_count;
static size_t peak_old_bytes;
static unsigned long stress_major_period = 1000, stress_allocs;

static inline bool is_young(const void *p)
{
    /* integer arithmetic: p may be NULL, static or old (unrelated to the nursery) */
    return (uintptr_t)p - (uintptr_t)nursery_start < nursery_size;
}

static inline void **forward_slot(void *young)
{
    return &((void **)young)[1];
}

/* Calls fn on the address of every GC pointer field of obj. Always inlined, so that the
 * callback is a direct (and usually inlined) call in each collector loop. */
static inline __attribute__((always_inline)) void trace(void *obj, void (*fn)(void **))
{
    const struct rpy_typeinfo *ti = &rpy_typeinfo[((rpy_hdr *)obj)->tid];
    const long *ofs = ti->ptrofs;
    if (ofs)
        for (; *ofs >= 0; ofs++)
            fn((void **)((char *)obj + *ofs));
    if (ti->itemsize && ti->itemptrofs && ti->itemptrofs[0] >= 0) {
        long n = *(long *)((char *)obj + ti->ofs_length);
        char *item = (char *)obj + ti->fixedsize;
        const long *iofs = ti->itemptrofs;
        if (iofs[1] < 0) {
            /* the common case, an array of GC pointers or of one-pointer items */
            long o = iofs[0];
            for (long i = 0; i < n; i++, item += ti->itemsize)
                fn((void **)(item + o));
        } else {
            for (long i = 0; i < n; i++, item += ti->itemsize)
                for (ofs = iofs; *ofs >= 0; ofs++)
                    fn((void **)(item + *ofs));
        }
    }
}

static void *old_malloc(size_t size)
{
    void *p = malloc(size);
    if (p == NULL)
        rpy_fatal("MemoryError");
    ptrvec_push(&old_objs, p);
    old_bytes += size + MALLOC_OVERHEAD;
    return p;
}

/* the hash of a young object, before the mix: unique to (this cycle, this offset), odd
 * so that it never equals the address of an old or static object */
static inline uint64_t young_hash(const void *p)
{
    return (minor_count * (uint64_t)nursery_size + ((uintptr_t)p - (uintptr_t)nursery_start)) | 1;
}

/* the old copy of a young object, made on the first call */
static void *copy_out(void *p)
{
    rpy_hdr *h = p;
    if (h->gcflags & GCFLAG_FORWARDED)
        return *forward_slot(p);
    size_t size = obj_size(p);
    bool hashed = (h->gcflags & GCFLAG_HASHTAKEN) != 0;
    char *n = old_malloc(size + (hashed ? sizeof(uint64_t) : 0));
    memcpy(n, p, size);
    rpy_hdr *nh = (rpy_hdr *)n;
    /* old now: a store into it must go through the write barrier */
    nh->gcflags = (h->gcflags & ~GCFLAG_HASHTAKEN) | RPY_GCFLAG_TRACK_YOUNG;
    if (hashed) {
        nh->gcflags |= GCFLAG_HASHFIELD;
        *(uint64_t *)(n + size) = young_hash(p);
    }
    h->gcflags |= GCFLAG_FORWARDED;
    *forward_slot(p) = n;
    ptrvec_push(&grey, n);
    return n;
}

static inline void minor_slot(void **slot)
{
    void *p = *slot;
    if (is_young(p))
        *slot = copy_out(p);
}

/* After a minor collection, the nursery space used is zeroed for the next allocations.
 * In stress mode it is instead filled with garbage (and poisoned for ASan) and the next
 * cycle starts after it, as long as the nursery has room for any young object. */
static void nursery_reset(void)
{
    if (stress && (size_t)(nursery_end - rpy_nursery_free) >= large_threshold) {
        memset(cycle_start, 0xDD, (size_t)(rpy_nursery_free - cycle_start));
        NURSERY_POISON(cycle_start, (size_t)(rpy_nursery_free - cycle_start));
        cycle_start = rpy_nursery_free;
        return;
    }
    NURSERY_UNPOISON(nursery_start, (size_t)(rpy_nursery_free - nursery_start));
    memset(nursery_start, 0, (size_t)(rpy_nursery_free - nursery_start));
    NURSERY_POISON(nursery_start, nursery_size);
    rpy_nursery_free = cycle_start = nursery_start;
}

/* the weak references allocated young, after the survivors are copied: a dead one is
 * forgotten; a surviving one now points to its referent's copy, or to NULL if the
 * referent died, and joins the old ones (it is not young any more, and immutable) */
static void minor_weakrefs(void)
{
    for (size_t i = 0; i < young_weakrefs.n; i++) {
        rpy_hdr *h = young_weakrefs.items[i];
        if (is_young(h)) {
            if (!(h->gcflags & GCFLAG_FORWARDED))
                continue;
            h = *forward_slot(h);
        }
        struct rpy_weakref *w = (struct rpy_weakref *)h;
        void *r = w->referent;
        if (is_young(r))
            w->referent = (((rpy_hdr *)r)->gcflags & GCFLAG_FORWARDED) ? *forward_slot(r) : NULL;
        ptrvec_push(&old_weakrefs, w);
    }
    young_weakrefs.n = 0;
}

static void minor_collect(void)
{
    /* roots: the shadow stack... */
    for (void **s = rpy_root_base; s < rpy_root_top; s++)
        minor_slot(s);
    /* ...and the old objects written to since the last minor collection; once scanned
     * they point to no young object, so their stores need the barrier again */
    for (size_t i = 0; i < remembered.n; i++) {
        void *obj = remembered.items[i];
        trace(obj, minor_slot);
        ((rpy_hdr *)obj)->gcflags |= RPY_GCFLAG_TRACK_YOUNG;
    }
    remembered.n = 0;
    /* the copies, which may point to more young objects */
    while (grey.n > 0) {
        void *obj = grey.items[--grey.n];
        trace(obj, minor_slot);
    }
    minor_weakrefs();
    nursery_reset();
    minor_count++;
}

static inline void mark(void *p)
{
    if (p == NULL)
        return;
    rpy_hdr *h = p;
    /* a static object is never freed: those with GC pointers are traced as roots, the
     * others have nothing to trace */
    if (h->gcflags & (RPY_GCFLAG_STATIC | GCFLAG_VISITED))
        return;
    h->gcflags |= GCFLAG_VISITED;
    ptrvec_push(&grey, p);
}

static inline void mark_slot(void **slot)
{
    mark(*slot);
}

/* a major collection, right after a minor one (the nursery is empty and no old object
 * is in the remembered set) */
static void major_collect(void)
{
    for (void **s = rpy_root_base; s < rpy_root_top; s++)
        mark(*s);
    for (long i = 0; i < rpy_static_gcobjs_count; i++)
        trace(rpy_static_gcobjs[i], mark_slot);
    while (grey.n > 0) {
        void *obj = grey.items[--grey.n];
        trace(obj, mark_slot);
    }
    /* the weak references: the dead ones are forgotten (the sweep frees them), the live
     * ones to an object about to be freed become NULL */
    size_t kept_w = 0;
    for (size_t i = 0; i < old_weakrefs.n; i++) {
        struct rpy_weakref *w = old_weakrefs.items[i];
        if (!(w->hdr.gcflags & (GCFLAG_VISITED | RPY_GCFLAG_STATIC)))
            continue;
        rpy_hdr *r = w->referent;
        if (r != NULL && !(r->gcflags & (GCFLAG_VISITED | RPY_GCFLAG_STATIC)))
            w->referent = NULL;
        old_weakrefs.items[kept_w++] = w;
    }
    old_weakrefs.n = kept_w;
    /* sweep, compacting old_objs[] in place */
    size_t kept = 0, bytes = 0;
    for (size_t i = 0; i < old_objs.n; i++) {
        void *obj = old_objs.items[i];
        rpy_hdr *h = obj;
        if (h->gcflags & GCFLAG_VISITED) {
            h->gcflags &= ~GCFLAG_VISITED;
            old_objs.items[kept++] = obj;
            bytes += obj_size(obj) + ((h->gcflags & GCFLAG_HASHFIELD) ? 8 : 0) + MALLOC_OVERHEAD;
        } else {
            free(obj);
        }
    }
    old_objs.n = kept;
    /* give back the tracking arrays' memory too, after a big live set died */
    if (old_objs.cap > 4096 && old_objs.n < old_objs.cap / 4) {
        size_t cap = old_objs.cap / 2;
        void **items = realloc(old_objs.items, cap * sizeof(void *));
        if (items != NULL) {
            old_objs.items = items;
            old_objs.cap = cap;
        }
    }
    if (grey.cap > 65536) {
        free(grey.items);
        grey.items = NULL;
        grey.cap = 0;
    }
    if (old_bytes > peak_old_bytes)
        peak_old_bytes = old_bytes;
    old_bytes = bytes;
    major_count++;
    major_threshold = bytes * MAJOR_FACTOR;
    if (major_threshold < (size_t)MAJOR_MIN)
        major_threshold = MAJOR_MIN;
}

/* a minor collection, and a major one if the old generation has grown enough */
static void collect_step(bool force_major)
{
    check_shadowstack();
    minor_collect();
    if (force_major || old_bytes > major_threshold)
        major_collect();
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* RPY_GC_VERBOSE=1: a summary on stderr at exit, to tune programs and the GC */
static void print_stats(void)
{
    if (old_bytes > peak_old_bytes)
        peak_old_bytes = old_bytes;
    fprintf(stderr,
            "gc: %lu minor, %lu major collections; nursery %zu bytes; old generation "
            "%zu bytes (peak %zu, next major at %zu)\n",
            (unsigned long)minor_count, major_count, nursery_size, old_bytes, peak_old_bytes,
            major_threshold);
}

void rpy_gc_init(void)
{
    shadowstack_init();
    if (env_flag("RPY_GC_VERBOSE"))
        atexit(print_stats);
    nursery_size = NURSERY_DEFAULT;
    const char *env = getenv("RPY_GC_NURSERY");
    if (env != NULL && env[0] != '\0') {
        char *end;
        long n = strtol(env, &end, 10);
        if (*end == '\0' && n > 0)
            nursery_size = n < NURSERY_MIN ? (size_t)NURSERY_MIN : ROUND8((size_t)n);
    }
    large_threshold = nursery_size / 8;
    nursery_start = calloc(1, nursery_size);
    if (nursery_start == NULL)
        rpy_fatal("MemoryError");
    nursery_end = nursery_start + nursery_size;
    rpy_nursery_free = cycle_start = nursery_start;
    NURSERY_POISON(nursery_start, nursery_size);
    major_threshold = MAJOR_MIN;
    stress = env_flag("RPY_GC_STRESS");
    rpy_nursery_limit = stress ? NULL : nursery_end;
    env = getenv("RPY_GC_STRESS_MAJOR");
    if (env != NULL && atol(env) > 0)
        stress_major_period = (unsigned long)atol(env);
}

/* a zeroed young object of `size` bytes (a multiple of 8, below large_threshold) */
static inline void *alloc_young(uint32_t tid, size_t size)
{
    check_shadowstack();
    if (__builtin_expect(stress, 0))
        collect_step(++stress_allocs % stress_major_period == 0);
    if (__builtin_expect((size_t)(nursery_end - rpy_nursery_free) < size, 0))
        collect_step(false);
    rpy_hdr *h = (rpy_hdr *)rpy_nursery_free;
    rpy_nursery_free += size;
    NURSERY_UNPOISON(h, size);
    h->tid = tid;
    return h;
}

/* a big object, allocated old: zeroed, so it holds no young pointer yet */
static void *alloc_large(uint32_t tid, size_t size)
{
    check_shadowstack();
    if (stress)
        stress_allocs++;
    if (old_bytes + size > major_threshold || (stress && stress_allocs % stress_major_period == 0))
        collect_step(true);
    rpy_hdr *h = calloc(1, size);
    if (h == NULL)
        rpy_fatal("MemoryError");
    ptrvec_push(&old_objs, h);
    old_bytes += size + MALLOC_OVERHEAD;
    h->tid = tid;
    h->gcflags = RPY_GCFLAG_TRACK_YOUNG;
    return h;
}

void *rpy_gc_malloc_fixed(uint32_t tid)
{
    check_tid(tid);
    size_t size = ROUND8((size_t)rpy_typeinfo[tid].fixedsize);
    if (size < YOUNG_MIN_SIZE)
        size = YOUNG_MIN_SIZE;
    if (__builtin_expect(size >= large_threshold, 0))
        return alloc_large(tid, size);
    return alloc_young(tid, size);
}

void *rpy_gc_malloc_varsize(uint32_t tid, long length)
{
    check_tid(tid);
    const struct rpy_typeinfo *ti = &rpy_typeinfo[tid];
    if (varsize_too_big(ti, length))
        return NULL;
    size_t size = varsize_bytes(ti, length);
    char *p;
    if (size < YOUNG_MIN_SIZE)
        size = YOUNG_MIN_SIZE;
    if (size >= large_threshold)
        p = alloc_large(tid, size);
    else
        p = alloc_young(tid, size);
    *(long *)(p + ti->ofs_length) = length;
    return p;
}

void rpy_gc_write_barrier_slow(void *obj)
{
    rpy_hdr *h = obj;
    h->gcflags &= ~RPY_GCFLAG_TRACK_YOUNG;
    ptrvec_push(&remembered, obj);
}

long rpy_gc_identityhash(void *obj)
{
    rpy_hdr *h = obj;
    if (is_young(obj)) {
        h->gcflags |= GCFLAG_HASHTAKEN;
        return hash_mix(young_hash(obj));
    }
    if (h->gcflags & GCFLAG_HASHFIELD)
        return hash_mix(*(const uint64_t *)((const char *)obj + obj_size(obj)));
    return hash_mix((uint64_t)(uintptr_t)obj);
}

void rpy_gc_collect(void)
{
    collect_step(true);
}

void *rpy_weakref_create(uint32_t tid, void *obj)
{
    RPY_PUSH_ROOT(obj);
    struct rpy_weakref *w = rpy_gc_malloc_fixed(tid);
    RPY_POP_ROOT(obj);
    w->referent = obj;
    /* (a reference allocated old to a young object is fixed by the next minor GC too) */
    ptrvec_push(is_young(w) || is_young(obj) ? &young_weakrefs : &old_weakrefs, w);
    return w;
}

#endif
