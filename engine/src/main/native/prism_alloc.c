/*
 * The native library's allocation gate (see prism_alloc.h). An allocation that fails, for real or
 * because a test asked it to, is reported to Java as NativeLibrary.NativeMemoryException, whose
 * catcher takes its Java path for that input (the chunker the tree-sitter binding, the n-grams the
 * Java code); nothing here aborts the process.
 *
 * Licensed under the Apache License, Version 2.0.
 */
#include <stdlib.h>
#include "prism_alloc.h"

/* Allocations left before the one a test wants refused; negative: none is. */
static long countdown = -1;

int prism_alloc_refused(void) {
  if (__atomic_load_n(&countdown, __ATOMIC_RELAXED) < 0) {
    return 0;
  }
  return __atomic_fetch_sub(&countdown, 1, __ATOMIC_RELAXED) == 0;
}

void *prism_malloc(size_t size) {
  return prism_alloc_refused() ? NULL : malloc(size);
}

void *prism_realloc(void *p, size_t size) {
  return prism_alloc_refused() ? NULL : realloc(p, size);
}

void prism_throw_no_memory(JNIEnv *env, const char *what) {
  jclass type = (*env)->FindClass(env,
      "dev/prismindex/engine/internal/NativeLibrary$NativeMemoryException");
  if (type != NULL) {
    (*env)->ThrowNew(env, type, what);
  } /* else a NoClassDefFoundError is pending, which the caller sees as a LinkageError */
}

/*
 * For tests of the paths that handle a failed allocation: the allocation n allocations from now
 * (0: the next one) fails, once, in whichever thread makes it; a negative n switches that off.
 * Returns the count that was left (negative: the refused allocation happened, or none was asked).
 */
JNIEXPORT jlong JNICALL Java_dev_prismindex_engine_internal_NativeLibrary_failAllocationAfter(
    JNIEnv *env, jclass cls, jlong n) {
  (void) env;
  (void) cls;
  return (jlong) __atomic_exchange_n(&countdown, n < 0 ? -1L : (long) n, __ATOMIC_RELAXED);
}
