/* debuglog.c: rlib.debug's log, steered by PYPYLOG as the reference's binaries do. The
 * LLInterpreter's src/llinterp/debuglog.rs is the specification (its doc comment lists the
 * modes): one bit per open section tells whether debug_prints are written there; the log
 * is stderr or a file opened at the first use; a file goes through stdio's buffer, which a
 * section's stop, debug_flush() and exit() write and abort() loses. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long debug_active = -1;
static bool debug_opened = false;
static bool debug_profile = false;
static char *debug_prefixes = NULL;  /* NULL: no prefix:FILE form */
static FILE *debug_file = NULL;      /* NULL: stderr */
static const char *color_start = "", *color_stop_line = "", *color_end = "";

static void stderr_write(const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(2, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        p += k;
        n -= (size_t)k;
    }
}

static void debug_write(const char *p, size_t n) {
    if (debug_file)
        (void)fwrite(p, 1, n, debug_file);
    else
        stderr_write(p, n);
}

static void debug_open(void) {
    if (debug_opened)
        return;
    debug_opened = true;
    const char *value = getenv("PYPYLOG");
    if (value && value[0]) {
        const char *name = value;
        const char *colon = strchr(value, ':');
        if (value[0] == '+') {
            name = value + 1;
            debug_profile = true;
        } else if (!colon) {
            debug_profile = true;
        } else {
            size_t n = (size_t)(colon - value);
            debug_prefixes = malloc(n + 1);
            if (debug_prefixes) {
                memcpy(debug_prefixes, value, n);
                debug_prefixes[n] = '\0';
            }
            name = colon + 1;
        }
        char *path = NULL;
        const char *pid_at = strstr(name, "%d");
        if (pid_at) {
            path = malloc(strlen(name) + 32);
            if (path)
                sprintf(path, "%.*s%ld%s", (int)(pid_at - name), name, (long)getpid(), pid_at + 2);
        }
        const char *file = path ? path : name;
        if (strcmp(file, "-") != 0)
            debug_file = fopen(file, "w");
        free(path);
        /* as the reference: without %d the variable is not passed to child processes */
        if (!pid_at)
            unsetenv("PYPYLOG");
    }
    if (!debug_file && isatty(2)) {
        color_start = "\033[1m\033[31m";
        color_stop_line = "\033[31m";
        color_end = "\033[0m";
    }
}

/* whether `category` starts with one of the comma-separated prefixes */
static bool starts_with_one_of(const struct rpy_string *category, const char *prefixes) {
    const char *p = prefixes;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if ((long)n <= category->length && memcmp(category->items, p, n) == 0)
            return true;
        if (!end)
            return false;
        p = end + 1;
    }
}

static unsigned long long debug_timestamp(void) {
#if defined(__x86_64__)
    unsigned long lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
#endif
}

static void section_line(const struct rpy_string *category, bool start) {
    char head[64];
    int n = snprintf(head, sizeof head, "%s[%llx] %s", start ? color_start : color_stop_line,
                     debug_timestamp(), start ? "{" : "");
    size_t len = (size_t)n + (size_t)category->length + 2 + strlen(color_end);
    char *line = malloc(len);
    if (!line)
        return;
    memcpy(line, head, (size_t)n);
    memcpy(line + n, category->items, (size_t)category->length);
    size_t k = (size_t)n + (size_t)category->length;
    if (!start)
        line[k++] = '}';
    line[k++] = '\n';
    memcpy(line + k, color_end, strlen(color_end));
    k += strlen(color_end);
    debug_write(line, k);
    free(line);
}

void RPyRT_ll_debug_start(struct rpy_string *category) {
    debug_open();
    debug_active <<= 1;
    if (!debug_profile) {
        if (!debug_prefixes || !starts_with_one_of(category, debug_prefixes))
            return;
        debug_active |= 1;
    }
    section_line(category, true);
}

void RPyRT_ll_debug_stop(struct rpy_string *category) {
    if (debug_profile || (debug_active & 1)) {
        section_line(category, false);
        if (debug_file)
            fflush(debug_file);
    }
    debug_active >>= 1;
}

bool RPyRT_ll_debug_have_prints(void) { return (debug_active & 1) != 0; }

void RPyRT_ll_debug_print_line(struct rpy_string *line) {
    if (!(debug_active & 1))
        return;
    debug_open();
    debug_write((const char *)line->items, (size_t)line->length);
}

void RPyRT_ll_debug_flush(void) {
    if (debug_file)
        fflush(debug_file);
}
