/* containers.c: the type-independent part of lists: resizing the items array of a
 * resizable list, deleting a range, making a new list of a given type. Items are moved
 * with memcpy/memmove using the array type's item size; the typed parts (equality,
 * hashing, dicts) are generated per type by GenC. */
#include "rpy.h"

static long rpy_itemsize(uint32_t array_tid) {
    return rpy_typeinfo[array_tid].itemsize;
}

/* A new list of `desc`'s type with `length` zeroed items. */
void *rpy_list_new(const struct rpy_listdesc *desc, long length) {
    struct rpy_array *a = rpy_gc_malloc_varsize(desc->array_tid, length);
    if (desc->list_tid == 0)
        return a;
    RPY_PUSH_ROOT(a);
    struct rpy_list *l = rpy_gc_malloc_fixed(desc->list_tid);
    RPY_POP_ROOT(a);
    l->length = length;
    l->items = a; /* l is the newest object: no barrier needed */
    return l;
}

/* Sets the length of a resizable list, growing its items array with some room (as
 * RPython's lists overallocate); items past the end are zeroed. May collect. */
void rpy_list_resize(struct rpy_list *l, long newlen, uint32_t array_tid) {
    long cap = l->items ? l->items->length : 0;
    long isz = rpy_itemsize(array_tid);
    if (newlen > cap) {
        long newcap = newlen + (newlen >> 3) + (newlen < 9 ? 3 : 6);
        RPY_PUSH_ROOT(l);
        struct rpy_array *na = rpy_gc_malloc_varsize(array_tid, newcap);
        RPY_POP_ROOT(l);
        if (l->items && l->length > 0)
            memcpy(na->items, l->items->items, (size_t)(l->length * isz));
        RPY_WB(na);   /* allocated old (large): it may now hold young pointers */
        RPY_WB(l);
        l->items = na;
    } else if (newlen < l->length) {
        memset(l->items->items + newlen * isz, 0, (size_t)((l->length - newlen) * isz));
    }
    l->length = newlen;
}

/* Removes items [i, j) of a resizable list. */
void rpy_list_delete_range(struct rpy_list *l, long i, long j) {
    long isz = rpy_typeinfo[l->items->hdr.tid].itemsize;
    long n = l->length;
    if (j > n) j = n;
    if (i >= j) return;
    memmove(l->items->items + i * isz, l->items->items + j * isz, (size_t)((n - j) * isz));
    memset(l->items->items + (n - (j - i)) * isz, 0, (size_t)((j - i) * isz));
    l->length = n - (j - i);
}

/* Python's clamping of slice bounds to [0, n]. */
void rpy_clamp_slice(long *start, long *stop, long n) {
    long s = *start, e = *stop;
    if (s < 0) { s += n; if (s < 0) s = 0; }
    if (s > n) s = n;
    if (e < 0) { e += n; if (e < 0) e = 0; }
    if (e > n) e = n;
    if (e < s) e = s;
    *start = s;
    *stop = e;
}

/* A growable byte buffer outside the GC heap (str() of containers). */
void rpy_buf_add(struct rpy_buf *b, const void *p, long n) {
    if (b->len + n > b->cap) {
        long c = b->cap * 2 + n + 64;
        char *q = realloc(b->data, (size_t)c);
        if (!q) rpy_fatal("MemoryError");
        b->data = q;
        b->cap = c;
    }
    memcpy(b->data + b->len, p, (size_t)n);
    b->len += n;
}

void rpy_buf_add_str(struct rpy_buf *b, struct rpy_string *s) {
    if (s == NULL) rpy_buf_add(b, "None", 4);
    else rpy_buf_add(b, s->items, s->length);
}

/* The buffer as a new str (frees the buffer). */
struct rpy_string *rpy_buf_finish(struct rpy_buf *b) {
    struct rpy_string *s = rpy_gc_malloc_varsize(rpy_tid_str, b->len);
    if (b->len) memcpy(s->items, b->data, (size_t)b->len);
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}
