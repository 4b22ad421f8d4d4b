/*
 * The native half of dev.prismindex.engine.internal.pipeline.Hashing: the BLAKE3 of a Java byte array
 * in one call, by the official C implementation, which picks its SIMD code (SSE2, SSE4.1, AVX2,
 * AVX-512) at run time. Built by build.sh (see there).
 *
 * Licensed under the Apache License, Version 2.0.
 */
#include <jni.h>
#include <stddef.h>
#include <stdint.h>
#include "blake3.h"

/*
 * The input is held (GetPrimitiveArrayCritical) a slice at a time: while an array is held no
 * garbage collection can run in the JVM, so a large input lets one in between slices (at 1 GB/s
 * and more, a slice takes under a millisecond). A file of the default size limit is one slice.
 */
#define SLICE ((jint) 1 << 20)

/*
 * BLAKE3 of in[0..length) into all of out: its first out.length bytes of output (a shorter output
 * is a prefix of a longer one). Hashing checked 0 <= length <= in.length and out.length > 0. No JNI
 * call and no allocation while an array is held; on a failed hold an OutOfMemoryError is pending
 * and out is left as it was.
 */
JNIEXPORT void JNICALL Java_dev_prismindex_engine_internal_pipeline_Hashing_blake3Native(
    JNIEnv *env, jclass cls, jbyteArray in, jint length, jbyteArray out) {
  (void) cls;
  blake3_hasher hasher;
  blake3_hasher_init(&hasher);
  for (jint done = 0; done < length;) {
    jint n = length - done < SLICE ? length - done : SLICE;
    uint8_t *bytes = (*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (bytes == NULL) {
      return;
    }
    blake3_hasher_update(&hasher, bytes + done, (size_t) n);
    (*env)->ReleasePrimitiveArrayCritical(env, in, bytes, JNI_ABORT);
    done += n;
  }
  jsize size = (*env)->GetArrayLength(env, out);
  uint8_t *digest = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (digest == NULL) {
    return;
  }
  blake3_hasher_finalize(&hasher, digest, (size_t) size);
  (*env)->ReleasePrimitiveArrayCritical(env, out, digest, 0);
}
