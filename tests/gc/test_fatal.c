/* test_fatal.c: the GC's fatal errors, one per mode given as argv[1]; the harness checks
 * the exit status and message.
 *   stack: a shadow stack that keeps growing across allocations -> StackOverflow (134)
 *   guard: pushes past the end without allocating -> killed by SIGSEGV on the guard
 *   length: a negative array length -> MemoryError (134) */
#include "gctest.h"
#include <string.h>



const struct rpy_typeinfo rpy_typeinfo[] = {
    {sizeof(struct node), 0, 0, node_ptrs, none},
    {offsetof(struct ptrarray, items), sizeof(void *), offsetof(struct ptrarray, length), none, item0},
};
const long rpy_typeinfo_count = 2;
void *const rpy_static_gcobjs[] = {NULL};
const long rpy_static_gcobjs_count = 0;

int main(int argc, char **argv)
{
    rpy_gc_init();
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "stack") == 0) {
        for (long i = 0;; i++) {
            struct node *n = rpy_gc_malloc_fixed(0);
            n->value = i;
            RPY_PUSH_ROOT(n);
        }
    } else if (strcmp(mode, "guard") == 0) {
        for (long i = 0;; i++)
            RPY_PUSH_ROOT((void *)i);
    } else if (strcmp(mode, "length") == 0) {
        rpy_gc_malloc_varsize(1, -1);
    }
    return 0;
}
