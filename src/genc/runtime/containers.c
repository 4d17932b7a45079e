/* containers.c: the type-independent part of lists: making a new list of a given type
 * (the list operations are low-level helper graphs, __rpy_ll__/ll_list.py); a byte
 * buffer for str() of containers. The typed parts (hashing) are generated per type by
 * GenC; dicts are low-level helper graphs too (__rpy_ll__/ll_dict.py). */
#include "rpy.h"

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
