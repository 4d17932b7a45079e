/* gc.c: placeholder until the collector lands: allocation only. */
#include "rpy.h"
void **rpy_root_base, **rpy_root_top;
void rpy_gc_init(void) {
    rpy_root_base = rpy_root_top = calloc(1 << 20, sizeof(void *));
}
static void *alloc(uint32_t tid, long size) {
    rpy_hdr *h = calloc(1, (size_t)((size + 7) & ~7L));
    if (!h) rpy_fatal("MemoryError");
    h->tid = tid;
    return h;
}
void *rpy_gc_malloc_fixed(uint32_t tid) { return alloc(tid, rpy_typeinfo[tid].fixedsize); }
void *rpy_gc_malloc_varsize(uint32_t tid, long length) {
    const struct rpy_typeinfo *t = &rpy_typeinfo[tid];
    char *p = alloc(tid, t->fixedsize + t->itemsize * length);
    *(long *)(p + t->ofs_length) = length;
    return p;
}
void rpy_gc_write_barrier_slow(void *obj) { ((rpy_hdr *)obj)->gcflags &= ~RPY_GCFLAG_TRACK_YOUNG; }
long rpy_gc_identityhash(void *obj) { return (long)(uintptr_t)obj; }
void rpy_gc_collect(void) {}
