/* test_rss.c: a long allocation loop (2e8 bytes) of short-lived garbage, medium-lived
 * objects that get promoted and then die, big arrays allocated old, and a slowly
 * changing live set: the peak RSS must stay bounded (major collections free memory). */
#include "gctest.h"


enum { T_NODE, T_PTRARRAY, T_LONGARRAY };


const struct rpy_typeinfo rpy_typeinfo[] = {
    GCTEST_SHARED_TYPEINFO,
};
const long rpy_typeinfo_count = sizeof(rpy_typeinfo) / sizeof(rpy_typeinfo[0]);

void *const rpy_static_gcobjs[] = {NULL};
const long rpy_static_gcobjs_count = 0;

#define LIVE_SLOTS 4096
#define LIST_LEN 16
#define RECENT 1024

static long total;

static struct node *new_node(long value, struct node *next)
{
    RPY_PUSH_ROOT(next);
    struct node *n = rpy_gc_malloc_fixed(T_NODE);
    RPY_POP_ROOT(next);
    n->value = value;
    RPY_WB(n);
    n->next = next;
    total += sizeof(struct node);
    return n;
}

static void store(void **root, long i, void *value)
{
    struct ptrarray *a = *root;
    RPY_WB(a);
    a->items[i] = value;
}

int main(void)
{
    rpy_gc_init();
    long limit = gct_scale(200000000L, 2000000L);
    long generation[LIVE_SLOTS] = {0};

    struct ptrarray *live = rpy_gc_malloc_varsize(T_PTRARRAY, LIVE_SLOTS);
    RPY_PUSH_ROOT(live);
    void **live_root = rpy_root_top - 1;
    struct ptrarray *recent = rpy_gc_malloc_varsize(T_PTRARRAY, RECENT);
    RPY_PUSH_ROOT(recent);
    void **recent_root = rpy_root_top - 1;

    long iter = 0;
    while (total < limit) {
        iter++;
        unsigned long r = gct_rand();
        /* short-lived garbage */
        switch (r % 8) {
        case 0: case 1: case 2:
            new_node((long)r, NULL);
            break;
        case 3: case 4: {
            long len = (long)((r >> 8) % 128);
            struct longarray *a = rpy_gc_malloc_varsize(T_LONGARRAY, len);
            if (len)
                a->items[len - 1] = len;
            total += 16 + 8 * len;
            break;
        }
        case 5: case 6:
            if (r % 8 == 6 && (r >> 8) % 512 == 0) {
                /* a big array, allocated old, garbage at once or soon */
                long len = 100000 + (long)((r >> 20) % 50000);
                struct longarray *a = rpy_gc_malloc_varsize(T_LONGARRAY, len);
                total += 16 + 8 * len;
                /* written all over: calloc'ed pages count in the RSS once touched */
                for (long k = 0; k < len; k++)
                    a->items[k] = k;
                if ((r >> 40) % 2)
                    store(recent_root, (long)((r >> 20) % RECENT), a);
            } else {
                /* a medium-lived object: survives until its slot is reused, so it is
                 * often promoted before it dies */
                long len = (long)((r >> 8) % 32);
                void *a = rpy_gc_malloc_varsize(T_PTRARRAY, len);
                total += 16 + 8 * len;
                store(recent_root, (long)((r >> 20) % RECENT), a);
            }
            break;
        default:
            if ((r >> 8) % 8 == 0) {
                /* the live set changes: a slot gets a new list */
                long slot = (long)((r >> 12) % LIVE_SLOTS);
                long gen = ++generation[slot];
                struct node *list = NULL;
                for (long k = 0; k < LIST_LEN; k++)
                    list = new_node(slot * 1000000 + gen * 100 + k, list);
                store(live_root, slot, list);
            }
            break;
        }
    }

    /* the live set is what the last stores made it */
    rpy_gc_collect();
    live = *live_root;
    long lists = 0;
    for (long slot = 0; slot < LIVE_SLOTS; slot++) {
        struct node *p = live->items[slot];
        if (generation[slot] == 0) {
            CHECK(p == NULL);
            continue;
        }
        lists++;
        for (long k = LIST_LEN - 1; k >= 0; k--, p = p->next)
            CHECK(p != NULL && p->value == slot * 1000000 + generation[slot] * 100 + k);
        CHECK(p == NULL);
    }
    RPY_POP_ROOT(recent);
    RPY_POP_ROOT(live);
    long rss = gct_peak_rss_kib();
    printf("ok iterations=%ld bytes=%ld live_lists=%ld peak_rss_kib=%ld\n", iter, total, lists, rss);
    /* the bound: 4 MiB nursery + a major threshold of 16 MiB + malloc's slack; a GC
     * that never frees would pass 200 MB */
    CHECK(rss < 64 * 1024);
    return 0;
}
