/* text.h: placeholder until the text runtime lands. */
#include "rpy.h"
void RPyRT_ll_print_item(struct rpy_string *s);
void RPyRT_ll_print_newline(void);
struct rpy_string *RPyRT_ll_int_str(long x);
struct rpy_string *RPyRT_ll_float_str(double x);
struct rpy_string *RPyRT_ll_strconcat(struct rpy_string *a, struct rpy_string *b);
bool RPyRT_ll_streq(struct rpy_string *a, struct rpy_string *b);
bool RPyRT_ll_streq_u(struct rpy_unicode *a, struct rpy_unicode *b);
long RPyRT_ll_strcmp(struct rpy_string *a, struct rpy_string *b);
long RPyRT_ll_strhash(struct rpy_string *a);
long RPyRT_ll_strhash_u(struct rpy_unicode *a);
long RPyRT_ll_os_write(long fd, struct rpy_string *s);
