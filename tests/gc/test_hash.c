/* test_hash.c: identity hashes are stable across minor and major collections (young
 * objects hashed before they move, varsize ones, old and static ones) and distinct for
 * distinct live objects. */
#include "gctest.h"

struct empty {
    rpy_hdr hdr;
};

enum { T_NODE, T_PTRARRAY, T_LONGARRAY, T_EMPTY };


const struct rpy_typeinfo rpy_typeinfo[] = {
    GCTEST_SHARED_TYPEINFO,
    [T_EMPTY] = {sizeof(struct empty), 0, 0, none, none},
};
const long rpy_typeinfo_count = sizeof(rpy_typeinfo) / sizeof(rpy_typeinfo[0]);

static struct node static_node = {{T_NODE, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG}, 1, NULL};
void *const rpy_static_gcobjs[] = {&static_node};
const long rpy_static_gcobjs_count = 1;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static void garbage(long count)
{
    for (long i = 0; i < count; i++)
        rpy_gc_malloc_varsize(T_LONGARRAY, (long)(gct_rand() % 32));
}

int main(void)
{
    rpy_gc_init();
    long n = gct_scale(200000, 5000);
    long *hashes = malloc((size_t)(n + 2) * sizeof(long));
    CHECK(hashes != NULL);

    /* the objects live in one big (old) array: every slot is filled with a young
     * object, some hashed right away (young), some after a collection (old) */
    struct ptrarray *arr = rpy_gc_malloc_varsize(T_PTRARRAY, n);
    RPY_PUSH_ROOT(arr);
    for (long i = 0; i < n; i++) {
        void *obj;
        switch (i % 3) {
        case 0: obj = rpy_gc_malloc_fixed(T_NODE); ((struct node *)obj)->value = i; break;
        case 1: obj = rpy_gc_malloc_fixed(T_EMPTY); break;
        default:
            obj = rpy_gc_malloc_varsize(T_LONGARRAY, i % 5);
            for (long k = 0; k < i % 5; k++)
                ((struct longarray *)obj)->items[k] = i + k;
            break;
        }
        arr = (struct ptrarray *)rpy_root_top[-1];
        RPY_WB(arr);
        arr->items[i] = obj;
        if (i % 2 == 0)
            hashes[i] = rpy_gc_identityhash(obj);
        if (i % 100 == 0)
            garbage(gct_small() ? 1 : 100);
    }
    rpy_gc_collect();
    arr = (struct ptrarray *)rpy_root_top[-1];
    for (long i = 1; i < n; i += 2)
        hashes[i] = rpy_gc_identityhash(arr->items[i]);
    hashes[n] = rpy_gc_identityhash(arr);
    hashes[n + 1] = rpy_gc_identityhash(&static_node);

    /* all stable across more collections; contents intact after the move (the hash
     * word must not overwrite items) */
    for (int round = 0; round < 3; round++) {
        garbage(gct_scale(300000, 1000));
        if (round == 1)
            rpy_gc_collect();
        arr = (struct ptrarray *)rpy_root_top[-1];
        for (long i = 0; i < n; i++) {
            rpy_hdr *h = arr->items[i];
            CHECK(rpy_gc_identityhash(h) == hashes[i]);
            if (i % 3 == 0)
                CHECK(h->tid == T_NODE && ((struct node *)h)->value == i);
            else if (i % 3 == 2) {
                struct longarray *la = (struct longarray *)h;
                CHECK(h->tid == T_LONGARRAY && la->length == i % 5);
                for (long k = 0; k < la->length; k++)
                    CHECK(la->items[k] == i + k);
            }
        }
        CHECK(rpy_gc_identityhash(arr) == hashes[n]);
        CHECK(rpy_gc_identityhash(&static_node) == hashes[n + 1]);
    }

    /* distinct objects, distinct hashes */
    qsort(hashes, (size_t)n + 2, sizeof(long), cmp_long);
    long dups = 0;
    for (long i = 1; i < n + 2; i++)
        dups += hashes[i] == hashes[i - 1];
    CHECK(dups == 0);
    /* and the low bits vary (hash tables mask them) */
    long low_buckets[16] = {0};
    for (long i = 0; i < n + 2; i++)
        low_buckets[hashes[i] & 15]++;
    for (int b = 0; b < 16; b++)
        CHECK(low_buckets[b] > 0);

    /* a young object hashed, moved by a minor collection only */
    struct node *y = rpy_gc_malloc_fixed(T_NODE);
    y->value = 99;
    long hy = rpy_gc_identityhash(y);
    RPY_PUSH_ROOT(y);
    garbage(gct_scale(200000, 10));
    RPY_POP_ROOT(y);
    CHECK(rpy_gc_identityhash(y) == hy && y->value == 99);

    RPY_POP_ROOT(arr);
    free(hashes);
    printf("ok peak_rss_kib=%ld\n", gct_peak_rss_kib());
    return 0;
}
