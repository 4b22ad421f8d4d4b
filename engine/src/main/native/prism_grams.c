/*
 * The native half of dev.prismindex.engine.internal.analysis.GramSet: the distinct n-grams of an
 * ASCII text in one call, packed as GramSet packs them. Built by build.sh (see there).
 *
 * Licensed under the Apache License, Version 2.0.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GramSet's packing: the length in bits 48-49, the units in bits 32-47, 16-31 and 0-15. */
#define BIGRAM ((uint64_t) 2 << 48)
#define TRIGRAM ((uint64_t) 3 << 48)

typedef struct {
  uint64_t *table;
  size_t mask;
  size_t size;
} Set;

/* GramSet.mix: the slot of a key (its upper half folded into the lower). */
static size_t slot_of(uint64_t key, size_t mask) {
  uint64_t h = key * 0x9E3779B97F4A7C15ULL;
  return (size_t) (uint32_t) (h ^ (h >> 32)) & mask;
}

/* Adds a key (never 0); returns 0 when memory runs out. */
static int add(Set *set, uint64_t key) {
  size_t slot = slot_of(key, set->mask);
  for (;;) {
    uint64_t k = set->table[slot];
    if (k == key) {
      return 1;
    }
    if (k == 0) {
      break;
    }
    slot = (slot + 1) & set->mask;
  }
  set->table[slot] = key;
  if (++set->size * 2 <= set->mask + 1) {
    return 1;
  }
  size_t capacity = (set->mask + 1) * 2;
  uint64_t *grown = calloc(capacity, sizeof(uint64_t));
  if (grown == NULL) {
    return 0;
  }
  for (size_t i = 0; i <= set->mask; i++) {
    uint64_t k = set->table[i];
    if (k != 0) {
      size_t s = slot_of(k, capacity - 1);
      while (grown[s] != 0) {
        s = (s + 1) & (capacity - 1);
      }
      grown[s] = k;
    }
  }
  free(set->table);
  set->table = grown;
  set->mask = capacity - 1;
  return 1;
}

/* Whether key is in common, an open-addressing table of GramSet's (a power of two long, 0 free). */
static int is_common(const uint64_t *common, size_t mask, uint64_t key) {
  for (size_t slot = slot_of(key, mask);; slot = (slot + 1) & mask) {
    if (common[slot] == key) {
      return 1;
    }
    if (common[slot] == 0) {
      return 0;
    }
  }
}

static int ascii(const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (bytes[i] >= 0x80) {
      return 0;
    }
  }
  return 1;
}

static uint64_t lower(uint8_t c) {
  return c >= 'A' && c <= 'Z' ? (uint64_t) (c + ('a' - 'A')) : (uint64_t) c;
}

/* The grams of one line (GramSet.addLine on ASCII): its bigram if it has two units, else its
 * trigrams. Returns 0 when memory runs out. */
static int add_line(Set *set, const uint8_t *line, size_t n) {
  if (n == 2) {
    return add(set, BIGRAM | lower(line[0]) << 32 | lower(line[1]) << 16);
  }
  if (n < 3) {
    return 1;
  }
  uint64_t key = lower(line[0]) << 16 | lower(line[1]);
  for (size_t i = 2; i < n; i++) {
    key = (key << 16 | lower(line[i])) & 0xFFFFFFFFFFFFULL;
    if (!add(set, TRIGRAM | key)) {
      return 0;
    }
  }
  return 1;
}

/*
 * The distinct grams of text[0..length) and of path (GramSet.ofFile: the lines split as
 * SourceLines splits them, on LF, one CR right before an LF removed, a last line without LF kept
 * with a CR it ends with; each line's grams and the path's as GramSet.addLine gives them), those in
 * common (GramSet's table of the common trigrams) left out, in an array in no particular order; or
 * null when a byte of either is not ASCII (the caller then takes the Java path, which lower-cases
 * Unicode). GramSet checked 0 <= length <= text.length. The arrays are held
 * (GetPrimitiveArrayCritical) without any JNI call in between; an OutOfMemoryError is thrown when
 * memory runs out.
 */
JNIEXPORT jlongArray JNICALL Java_dev_prismindex_engine_internal_analysis_GramSet_asciiGrams(
    JNIEnv *env, jclass cls, jbyteArray text, jint length, jbyteArray path, jlongArray common) {
  (void) cls;
  size_t n = (size_t) length;
  size_t path_length = (size_t) (*env)->GetArrayLength(env, path);
  size_t common_mask = (size_t) (*env)->GetArrayLength(env, common) - 1;
  size_t capacity = 1024;
  while (capacity < ((size_t) 1 << 20) && capacity < n / 3) {
    capacity <<= 1;
  }
  Set set = {calloc(capacity, sizeof(uint64_t)), capacity - 1, 0};
  if (set.table == NULL) {
    goto oom;
  }
  const uint8_t *bytes = (*env)->GetPrimitiveArrayCritical(env, text, NULL);
  if (bytes == NULL) {
    free(set.table);
    return NULL; /* an OutOfMemoryError is pending */
  }
  const uint8_t *path_bytes = (*env)->GetPrimitiveArrayCritical(env, path, NULL);
  if (path_bytes == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, text, (void *) bytes, JNI_ABORT);
    free(set.table);
    return NULL;
  }
  int all_ascii = ascii(bytes, n) && ascii(path_bytes, path_length);
  int ok = 1;
  for (size_t start = 0; all_ascii && ok && start < n;) {
    const uint8_t *lf = memchr(bytes + start, '\n', n - start);
    if (lf == NULL) {
      ok = add_line(&set, bytes + start, n - start);
      break;
    }
    size_t at = (size_t) (lf - bytes);
    size_t end = at > start && bytes[at - 1] == '\r' ? at - 1 : at;
    ok = add_line(&set, bytes + start, end - start);
    start = at + 1;
  }
  if (all_ascii && ok) {
    ok = add_line(&set, path_bytes, path_length);
  }
  (*env)->ReleasePrimitiveArrayCritical(env, path, (void *) path_bytes, JNI_ABORT);
  (*env)->ReleasePrimitiveArrayCritical(env, text, (void *) bytes, JNI_ABORT);
  if (!ok) {
    goto oom;
  }
  if (!all_ascii) {
    free(set.table);
    return NULL;
  }
  const uint64_t *commons = (*env)->GetPrimitiveArrayCritical(env, common, NULL);
  if (commons == NULL) {
    free(set.table);
    return NULL;
  }
  size_t j = 0;
  for (size_t i = 0; i <= set.mask; i++) {
    uint64_t k = set.table[i];
    if (k != 0 && !is_common(commons, common_mask, k)) {
      set.table[j++] = k;
    }
  }
  (*env)->ReleasePrimitiveArrayCritical(env, common, (void *) commons, JNI_ABORT);
  jlongArray result = (*env)->NewLongArray(env, (jsize) j);
  if (result != NULL) {
    (*env)->SetLongArrayRegion(env, result, 0, (jsize) j, (const jlong *) set.table);
  }
  free(set.table);
  return result;
oom:
  free(set.table);
  {
    jclass error = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
    if (error != NULL) {
      (*env)->ThrowNew(env, error, "n-grams: native memory exhausted");
    }
  }
  return NULL;
}
