/*
 * Stand-ins for the few Aeron client functions that the vendored ring files call but that live
 * in files not vendored here (util/aeron_error.c, aeron_alloc.c): error reporting and the
 * scratch-buffer allocation of the broadcast receiver. Not part of Aeron; ours (the harness
 * never relies on Aeron's error text, it prints its own).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "aeron_alloc.h"
#include "util/aeron_error.h"

void aeron_err_set(int errcode, const char *function, const char *filename, int line_number, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "aeron error %d in %s (%s:%d): ", errcode, function, filename, line_number);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

void aeron_err_append(const char *function, const char *filename, int line_number, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "aeron error in %s (%s:%d): ", function, filename, line_number);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

int aeron_alloc(void **ptr, size_t size)
{
    void *bytes = calloc(1, size);
    if (NULL == bytes)
    {
        return -1;
    }
    *ptr = bytes;
    return 0;
}

void aeron_free(void *ptr)
{
    free(ptr);
}
