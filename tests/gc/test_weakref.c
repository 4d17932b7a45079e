/* test_weakref.c: weak references (struct rpy_weakref, made by rpy_weakref_create) follow
 * their referent when a collection moves it, become NULL when a collection frees it
 * (young referents at a minor collection, old ones at a major one), keep pointing to
 * static objects, and may die themselves before or after their referent. */
#include "gctest.h"


enum { T_NODE, T_PTRARRAY, T_LONGARRAY, T_WEAKREF };


const struct rpy_typeinfo rpy_typeinfo[] = {
    GCTEST_SHARED_TYPEINFO,
    /* the referent is not traced */
    [T_WEAKREF] = {sizeof(struct rpy_weakref), 0, 0, none, none},
};
const long rpy_typeinfo_count = sizeof(rpy_typeinfo) / sizeof(rpy_typeinfo[0]);

static struct node static_node = {{T_NODE, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG}, 42, NULL};
void *const rpy_static_gcobjs[] = {&static_node};
const long rpy_static_gcobjs_count = 1;

static void garbage(long count)
{
    for (long i = 0; i < count; i++)
        rpy_gc_malloc_varsize(T_LONGARRAY, (long)(gct_rand() % 32));
}

static struct node *new_node(long value)
{
    struct node *n = rpy_gc_malloc_fixed(T_NODE);
    n->value = value;
    return n;
}

static void *referent(void *w)
{
    return ((struct rpy_weakref *)w)->referent;
}

int main(void)
{
    rpy_gc_init();
    long n = gct_scale(20000, 300);

    /* a young reference to a young object kept alive: it follows the object's moves */
    struct node *keep = new_node(7);
    RPY_PUSH_ROOT(keep);
    void *wk = rpy_weakref_create(T_WEAKREF, keep);
    RPY_PUSH_ROOT(wk);
    garbage(n * 10);
    rpy_gc_collect();
    garbage(n);
    wk = rpy_root_top[-1];
    keep = rpy_root_top[-2];
    CHECK(referent(wk) == keep);
    CHECK(keep->value == 7);

    /* a young reference to a young object nobody keeps: NULL after a minor collection */
    void *wd = rpy_weakref_create(T_WEAKREF, new_node(8));
    RPY_PUSH_ROOT(wd);
    rpy_gc_collect();
    wd = rpy_root_top[-1];
    CHECK(referent(wd) == NULL);
    RPY_POP_ROOT(wd);

    /* an array of references (old after a collection) to young objects of which every
     * third one is kept in a second array; the others die at the next collection */
    struct ptrarray *refs = rpy_gc_malloc_varsize(T_PTRARRAY, n);
    RPY_PUSH_ROOT(refs);
    struct ptrarray *strong = rpy_gc_malloc_varsize(T_PTRARRAY, n);
    RPY_PUSH_ROOT(strong);
    for (long i = 0; i < n; i++) {
        struct node *o = new_node(i);
        RPY_PUSH_ROOT(o);
        void *w = rpy_weakref_create(T_WEAKREF, o);
        RPY_POP_ROOT(o);
        refs = rpy_root_top[-2];
        strong = rpy_root_top[-1];
        RPY_WB(refs);
        refs->items[i] = w;
        if (i % 3 == 0) {
            RPY_WB(strong);
            strong->items[i] = o;
        }
        if (i % 100 == 0)
            garbage(50);
    }
    rpy_gc_collect();
    refs = rpy_root_top[-2];
    strong = rpy_root_top[-1];
    for (long i = 0; i < n; i++) {
        struct node *o = referent(refs->items[i]);
        if (i % 3 == 0) {
            CHECK(o == strong->items[i]);
            CHECK(o->value == i);
        } else {
            CHECK(o == NULL);
        }
    }

    /* the kept objects are old now: dropping them frees them at the next major
     * collection only, which clears their (old) references */
    for (long i = 0; i < n; i++) {
        if (i % 6 == 0) {
            RPY_WB(strong);
            strong->items[i] = NULL;
        }
    }
    rpy_gc_collect();
    refs = rpy_root_top[-2];
    strong = rpy_root_top[-1];
    for (long i = 0; i < n; i++) {
        struct node *o = referent(refs->items[i]);
        if (i % 3 == 0 && i % 6 != 0)
            CHECK(o == strong->items[i] && o->value == i);
        else
            CHECK(o == NULL);
    }

    /* a reference to a static object never dies; references that die before their
     * referent are simply forgotten */
    void *ws = rpy_weakref_create(T_WEAKREF, &static_node);
    RPY_PUSH_ROOT(ws);
    for (long i = 0; i < n * 5; i++) {
        strong = rpy_root_top[-2];
        rpy_weakref_create(T_WEAKREF, strong->items[(i * 3) % n] ? strong->items[(i * 3) % n] : (void *)&static_node);
    }
    rpy_gc_collect();
    ws = rpy_root_top[-1];
    CHECK(referent(ws) == &static_node);
    RPY_POP_ROOT(ws);

    /* and the first reference still follows its object */
    RPY_POP_ROOT(strong);
    RPY_POP_ROOT(refs);
    rpy_gc_collect();
    wk = rpy_root_top[-1];
    keep = rpy_root_top[-2];
    CHECK(referent(wk) == keep && keep->value == 7);
    RPY_POP_ROOT(wk);
    RPY_POP_ROOT(keep);
    /* the object dies with nothing holding it but a (dead) reference */
    void *wl = rpy_weakref_create(T_WEAKREF, new_node(9));
    RPY_PUSH_ROOT(wl);
    garbage(n);
    rpy_gc_collect();
    wl = rpy_root_top[-1];
    CHECK(referent(wl) == NULL);
    RPY_POP_ROOT(wl);
    printf("weakrefs ok\n");
    return 0;
}
