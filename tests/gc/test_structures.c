/* test_structures.c: lists, trees, arrays, cycles, old-to-young and static-to-young
 * pointers, objects that survive many collections. */
#include "gctest.h"

struct tree {
    rpy_hdr hdr;
    long value;
    struct tree *left, *right;
};
struct empty {
    rpy_hdr hdr;
};
struct entry {
    struct node *key;
    long hash;
    struct node *value;
};
struct entries {
    rpy_hdr hdr;
    long length;
    struct entry items[];
};
/* a GcStruct whose last field is an inlined Array of pointers */
struct holder {
    rpy_hdr hdr;
    struct node *first;
    long length;
    struct node *items[];
};

enum { T_NODE, T_TREE, T_PTRARRAY, T_LONGARRAY, T_EMPTY, T_ENTRIES, T_HOLDER };

static const long tree_ptrs[] = {offsetof(struct tree, left), offsetof(struct tree, right), -1};
static const long entry_ptrs[] = {offsetof(struct entry, key), offsetof(struct entry, value), -1};
static const long holder_ptrs[] = {offsetof(struct holder, first), -1};

const struct rpy_typeinfo rpy_typeinfo[] = {
    [T_NODE] = {sizeof(struct node), 0, 0, node_ptrs, none},
    [T_TREE] = {sizeof(struct tree), 0, 0, tree_ptrs, none},
    [T_PTRARRAY] = {offsetof(struct ptrarray, items), sizeof(void *),
                    offsetof(struct ptrarray, length), none, item0},
    [T_LONGARRAY] = {offsetof(struct longarray, items), sizeof(long),
                     offsetof(struct longarray, length), none, NULL},
    [T_EMPTY] = {sizeof(struct empty), 0, 0, NULL, NULL},
    [T_ENTRIES] = {offsetof(struct entries, items), sizeof(struct entry),
                   offsetof(struct entries, length), none, entry_ptrs},
    [T_HOLDER] = {offsetof(struct holder, items), sizeof(void *),
                  offsetof(struct holder, length), holder_ptrs, item0},
};
const long rpy_typeinfo_count = sizeof(rpy_typeinfo) / sizeof(rpy_typeinfo[0]);

/* prebuilt objects: two with GC pointers (listed), one without (not listed) */
static struct node static_node = {{T_NODE, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG}, 7, NULL};
static struct {
    rpy_hdr hdr;
    long length;
    void *items[4];
} static_array = {{T_PTRARRAY, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG}, 4, {NULL}};
static struct {
    rpy_hdr hdr;
    long length;
    long items[3];
} static_longs = {{T_LONGARRAY, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG}, 3, {1, 2, 3}};

void *const rpy_static_gcobjs[] = {&static_node, &static_array};
const long rpy_static_gcobjs_count = 2;

static struct node *new_node(long value, struct node *next)
{
    RPY_PUSH_ROOT(next);
    struct node *n = rpy_gc_malloc_fixed(T_NODE);
    RPY_POP_ROOT(next);
    n->value = value;
    RPY_WB(n);
    n->next = next;
    return n;
}

/* some short-lived objects of all sizes, to fill the nursery */
static void garbage(long count)
{
    for (long i = 0; i < count; i++) {
        switch (gct_rand() % 4) {
        case 0: rpy_gc_malloc_fixed(T_NODE); break;
        case 1: rpy_gc_malloc_varsize(T_LONGARRAY, (long)(gct_rand() % 64)); break;
        case 2: rpy_gc_malloc_varsize(T_PTRARRAY, (long)(gct_rand() % 16)); break;
        default: rpy_gc_malloc_fixed(T_EMPTY); break;
        }
    }
}

static void test_long_list(void)
{
    long n = gct_scale(1000000, 20000);
    struct node *list = NULL;
    for (long i = 0; i < n; i++) {
        list = new_node(i, list);
        if (i % 1000 == 0) {
            RPY_PUSH_ROOT(list);
            garbage(10);
            RPY_POP_ROOT(list);
        }
    }
    RPY_PUSH_ROOT(list);
    rpy_gc_collect();
    garbage(gct_scale(200000, 2000));
    RPY_POP_ROOT(list);
    long expect = n - 1, count = 0;
    for (struct node *p = list; p != NULL; p = p->next, expect--, count++)
        CHECK(p->value == expect && p->hdr.tid == T_NODE);
    CHECK(count == n);
}

static struct tree *build_tree(int depth, long *counter)
{
    struct tree *t = rpy_gc_malloc_fixed(T_TREE);
    t->value = (*counter)++;
    if (depth > 0) {
        RPY_PUSH_ROOT(t);
        struct tree *l = build_tree(depth - 1, counter);
        RPY_POP_ROOT(t);
        RPY_WB(t);
        t->left = l;
        RPY_PUSH_ROOT(t);
        struct tree *r = build_tree(depth - 1, counter);
        RPY_POP_ROOT(t);
        RPY_WB(t);
        t->right = r;
    }
    return t;
}

static void check_tree(struct tree *t, int depth, long *counter)
{
    CHECK(t->hdr.tid == T_TREE && t->value == (*counter)++);
    if (depth > 0) {
        check_tree(t->left, depth - 1, counter);
        check_tree(t->right, depth - 1, counter);
    } else {
        CHECK(t->left == NULL && t->right == NULL);
    }
}

static void test_tree(void)
{
    int depth = (int)gct_scale(18, 11);
    long counter = 0;
    struct tree *t = build_tree(depth, &counter);
    CHECK(counter == (2L << depth) - 1);
    RPY_PUSH_ROOT(t);
    garbage(gct_scale(100000, 1000));
    rpy_gc_collect();
    RPY_POP_ROOT(t);
    counter = 0;
    check_tree(t, depth, &counter);
}

/* a large array (allocated old) and a small one (young), filled with young nodes */
static void test_arrays(void)
{
    long big = gct_scale(200000, 100000), small = 1000;
    struct ptrarray *a = rpy_gc_malloc_varsize(T_PTRARRAY, big);
    CHECK(a->length == big && a->hdr.tid == T_PTRARRAY);
#ifndef RPY_GC_NONE
    CHECK(a->hdr.gcflags & RPY_GCFLAG_TRACK_YOUNG); /* allocated old */
#endif
    RPY_PUSH_ROOT(a);
    struct ptrarray *b = rpy_gc_malloc_varsize(T_PTRARRAY, small);
    RPY_PUSH_ROOT(b);
    for (long round = 0; round < 3; round++) {
        long step = gct_small() ? 97 : 1;
        for (long i = round; i < big; i += step) {
            struct node *n = new_node(i * 10 + round, NULL);
            a = (struct ptrarray *)rpy_root_top[-2];
            RPY_WB(a);
            a->items[i] = n;
            if (i % 7 == 0) {
                /* the same node also from the small array */
                b = (struct ptrarray *)rpy_root_top[-1];
                RPY_WB(b);
                b->items[i % small] = n;
            }
        }
        garbage(gct_scale(50000, 500));
        a = (struct ptrarray *)rpy_root_top[-2];
        for (long i = round; i < big; i += step) {
            struct node *n = a->items[i];
            CHECK(n->hdr.tid == T_NODE && n->value == i * 10 + round);
        }
    }
    rpy_gc_collect();
    RPY_POP_ROOT(b);
    RPY_POP_ROOT(a);
    for (long i = 0; i < small; i++) {
        struct node *n = b->items[i];
        if (n != NULL)
            CHECK(n->hdr.tid == T_NODE && (n->value / 10) % small == i && (n->value / 10) % 7 == 0);
    }
    CHECK(a->length == big);
}

/* arrays of structs with two GC pointers per item, structs with an inlined array */
static void test_inlined_items(void)
{
    long n = 300;
    struct entries *e = rpy_gc_malloc_varsize(T_ENTRIES, n);
    RPY_PUSH_ROOT(e);
    struct holder *h = rpy_gc_malloc_varsize(T_HOLDER, n);
    RPY_PUSH_ROOT(h);
    for (long i = 0; i < n; i++) {
        struct node *k = new_node(i, NULL);
        RPY_PUSH_ROOT(k);
        struct node *v = new_node(-i, k);
        RPY_POP_ROOT(k);
        e = (struct entries *)rpy_root_top[-2];
        RPY_WB(e);
        e->items[i].key = k;
        e->items[i].hash = i * 3;
        e->items[i].value = v;
        h = (struct holder *)rpy_root_top[-1];
        RPY_WB(h);
        h->items[i] = v;
        if (i == 0)
            h->first = k;
        garbage(20);
    }
    rpy_gc_collect();
    garbage(1000);
    RPY_POP_ROOT(h);
    RPY_POP_ROOT(e);
    CHECK(h->first == e->items[0].key);
    for (long i = 0; i < n; i++) {
        CHECK(e->items[i].key->value == i && e->items[i].hash == i * 3);
        CHECK(e->items[i].value->value == -i && e->items[i].value->next == e->items[i].key);
        CHECK(h->items[i] == e->items[i].value);
    }
}

static void test_cycles(void)
{
    long n = 5000;
    struct node *first = new_node(0, NULL);
    RPY_PUSH_ROOT(first);
    struct node *last = first;
    for (long i = 1; i < n; i++) {
        RPY_PUSH_ROOT(last);
        struct node *m = new_node(i, NULL);
        RPY_POP_ROOT(last);
        RPY_WB(last);
        last->next = m;
        last = m;
    }
    first = (struct node *)rpy_root_top[-1];
    RPY_WB(last);
    last->next = first; /* close the ring */
    garbage(gct_scale(100000, 1000));
    rpy_gc_collect();
    garbage(1000);
    RPY_POP_ROOT(first);
    struct node *p = first;
    for (long i = 0; i < n; i++, p = p->next)
        CHECK(p->value == i);
    CHECK(p == first);
    /* an unreachable ring is freed (ASan/LSan would not complain either way; this only
     * checks that collecting it does not crash) */
    rpy_gc_collect();
}

static void test_statics(void)
{
    /* a young node reachable only from a prebuilt object */
    struct node *n = new_node(42, NULL);
    RPY_WB(&static_node);
    static_node.next = n;
    struct node *m = new_node(43, NULL);
    RPY_WB(&static_array);
    static_array.items[0] = m;
    /* an old array pointing to a prebuilt object without GC pointers (not listed) */
    struct ptrarray *a = rpy_gc_malloc_varsize(T_PTRARRAY, 70000);
    RPY_WB(a);
    a->items[5] = &static_longs;
    a->items[6] = &static_node;
    RPY_WB(&static_array);
    static_array.items[1] = a;
    for (long round = 0; round < 20; round++) {
        /* a chain hanging from the prebuilt node, replaced every round */
        struct node *chain = NULL;
        for (long i = 0; i < 100; i++) {
            RPY_PUSH_ROOT(chain);
            garbage(50);
            RPY_POP_ROOT(chain);
            chain = new_node(round * 1000 + i, chain);
        }
        RPY_WB(&static_node);
        static_node.next = chain;
        if (round % 5 == 0)
            rpy_gc_collect();
        garbage(gct_scale(20000, 200));
        long i = 99;
        for (struct node *p = static_node.next; p; p = p->next, i--)
            CHECK(p->value == round * 1000 + i);
        CHECK(i == -1);
    }
    m = static_array.items[0];
    CHECK(m->value == 43 && m->hdr.tid == T_NODE);
    a = static_array.items[1];
    CHECK(a->length == 70000 && a->items[5] == &static_longs && a->items[6] == &static_node);
    CHECK(static_longs.items[2] == 3);
    CHECK(static_node.value == 7);
}

/* a list that lives through many minor collections while garbage flows */
static void test_survivors(void)
{
    struct node *list = NULL;
    for (long i = 0; i < 1000; i++)
        list = new_node(i, list);
    RPY_PUSH_ROOT(list);
    struct node *other = NULL;
    RPY_PUSH_ROOT(other);
    for (long round = 0; round < gct_scale(200, 20); round++) {
        garbage(gct_scale(20000, 200)); /* about one nursery */
        /* the old list's head gets a young neighbour each round */
        struct node *fresh = new_node(round, (struct node *)rpy_root_top[-1]);
        rpy_root_top[-1] = fresh;
    }
    RPY_POP_ROOT(other);
    RPY_POP_ROOT(list);
    long expect = 999;
    for (struct node *p = list; p; p = p->next)
        CHECK(p->value == expect--);
    CHECK(expect == -1);
    expect = gct_scale(200, 20) - 1;
    for (struct node *p = other; p; p = p->next)
        CHECK(p->value == expect--);
    CHECK(expect == -1);
}

/* NULL slots and duplicates on the shadow stack; header-only objects */
static void test_roots(void)
{
    struct empty *e = rpy_gc_malloc_fixed(T_EMPTY);
    RPY_PUSH_ROOT(NULL);
    RPY_PUSH_ROOT(e);
    RPY_PUSH_ROOT(e);
    garbage(gct_scale(100000, 100));
    rpy_gc_collect();
    CHECK(rpy_root_top[-1] == rpy_root_top[-2]);
    CHECK(rpy_root_top[-3] == NULL);
    e = rpy_root_top[-1];
    CHECK(e->hdr.tid == T_EMPTY);
    rpy_root_top -= 3;
    /* zero-length arrays */
    struct ptrarray *z = rpy_gc_malloc_varsize(T_PTRARRAY, 0);
    CHECK(z->length == 0);
}

int main(void)
{
    rpy_gc_init();
    void **base = rpy_root_top;
    test_roots();
    test_long_list();
    test_tree();
    test_arrays();
    test_inlined_items();
    test_cycles();
    test_statics();
    test_survivors();
    CHECK(rpy_root_top == base);
    printf("ok peak_rss_kib=%ld\n", gct_peak_rss_kib());
    return 0;
}
