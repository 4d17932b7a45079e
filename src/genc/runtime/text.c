/* text.c: placeholder until the text runtime lands. */
#include "text.h"
#include <stdio.h>
#include <unistd.h>
static struct rpy_buf line;
static struct rpy_string *mk(const char *p, long n) {
    struct rpy_string *s = rpy_gc_malloc_varsize(rpy_tid_str, n);
    memcpy(s->items, p, (size_t)n);
    return s;
}
void RPyRT_ll_print_item(struct rpy_string *s) { rpy_buf_add_str(&line, s); rpy_buf_add(&line, " ", 1); }
void RPyRT_ll_print_newline(void) {
    if (line.len) line.data[line.len - 1] = '\n'; else rpy_buf_add(&line, "\n", 1);
    if (write(1, line.data, (size_t)line.len) < 0) {}
    line.len = 0;
}
struct rpy_string *RPyRT_ll_int_str(long x) { char b[32]; int n = snprintf(b, 32, "%ld", x); return mk(b, n); }
struct rpy_string *RPyRT_ll_float_str(double x) { char b[64]; int n = snprintf(b, 64, "%.12g", x); return mk(b, n); }
struct rpy_string *RPyRT_ll_strconcat(struct rpy_string *a, struct rpy_string *b) {
    RPY_PUSH_ROOT(a); RPY_PUSH_ROOT(b);
    struct rpy_string *s = rpy_gc_malloc_varsize(rpy_tid_str, a->length + b->length);
    RPY_POP_ROOT(b); RPY_POP_ROOT(a);
    memcpy(s->items, a->items, (size_t)a->length);
    memcpy(s->items + a->length, b->items, (size_t)b->length);
    return s;
}
bool RPyRT_ll_streq(struct rpy_string *a, struct rpy_string *b) {
    if (a == b) return 1;
    if (!a || !b || a->length != b->length) return 0;
    return memcmp(a->items, b->items, (size_t)a->length) == 0;
}
bool RPyRT_ll_streq_u(struct rpy_unicode *a, struct rpy_unicode *b) {
    if (a == b) return 1;
    if (!a || !b || a->length != b->length) return 0;
    return memcmp(a->items, b->items, (size_t)a->length * 4) == 0;
}
long RPyRT_ll_strcmp(struct rpy_string *a, struct rpy_string *b) {
    long n = a->length < b->length ? a->length : b->length;
    int c = memcmp(a->items, b->items, (size_t)n);
    if (c) return c;
    return a->length - b->length;
}
long RPyRT_ll_strhash(struct rpy_string *a) {
    long x = a->length ? (long)a->items[0] << 7 : 0;
    for (long i = 0; i < a->length; i++) x = (long)((unsigned long)x * 1000003UL) ^ a->items[i];
    return x ^ a->length;
}
long RPyRT_ll_strhash_u(struct rpy_unicode *a) { return a->length; }
long RPyRT_ll_os_write(long fd, struct rpy_string *s) { return (long)write((int)fd, s->items, (size_t)s->length); }
