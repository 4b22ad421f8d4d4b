/*
 * The native library's allocation gate (prism_alloc.c): every allocation of this project's C code,
 * and every allocation tree-sitter makes through its allocator, asks it first.
 *
 * Licensed under the Apache License, Version 2.0.
 */
#ifndef PRISM_ALLOC_H
#define PRISM_ALLOC_H

#include <jni.h>
#include <stddef.h>

/* Whether this allocation is refused by the test switch (NativeLibrary.failAllocationAfter). */
int prism_alloc_refused(void);

/* malloc and realloc, or NULL when the test switch refuses the allocation. */
void *prism_malloc(size_t size);
void *prism_realloc(void *p, size_t size);

/*
 * Throws NativeLibrary.NativeMemoryException: an allocation failed, the caller's Java path takes
 * over for this input. The JVM is never aborted for it.
 */
void prism_throw_no_memory(JNIEnv *env, const char *what);

#endif
