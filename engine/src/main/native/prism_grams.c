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
#include "prism_alloc.h"

/* GramSet's packing: the length in bits 48-49, the units in bits 32-47, 16-31 and 0-15. */
#define BIGRAM ((uint64_t) 2 << 48)
#define TRIGRAM ((uint64_t) 3 << 48)

/*
 * An ASCII file's grams as bits, one per possible gram, bigrams (two 7-bit units: 2^14 bits) before
 * trigrams (three: 2^21 bits), each in the order of its units, so in the order of their packed
 * keys; and a summary, one bit per word of them, so that reading the set visits only the words it
 * touched. GramSet.Scratch: a thread's Java array, all zero between calls.
 */
#define BIGRAM_WORDS 256
#define GRAM_WORDS (BIGRAM_WORDS + 32768)
#define SUMMARY_WORDS (GRAM_WORDS / 64)
#define TRIGRAM_BASE ((size_t) BIGRAM_WORDS * 64)

typedef struct {
  uint64_t *words;
  uint64_t *summary;
  size_t distinct;
} Bits;

static void set_bit(Bits *set, size_t index) {
  size_t w = index >> 6;
  uint64_t bit = (uint64_t) 1 << (index & 63);
  uint64_t word = set->words[w];
  if ((word & bit) == 0) {
    set->words[w] = word | bit;
    set->summary[w >> 6] |= (uint64_t) 1 << (w & 63);
    set->distinct++;
  }
}

/* The packed key of the gram at bit index. */
static uint64_t key_of(size_t index) {
  if (index < TRIGRAM_BASE) {
    return BIGRAM | (uint64_t) (index >> 7) << 32 | (uint64_t) (index & 127) << 16;
  }
  size_t t = index - TRIGRAM_BASE;
  return TRIGRAM | (uint64_t) (t >> 14) << 32 | (uint64_t) (t >> 7 & 127) << 16
      | (uint64_t) (t & 127);
}

/*
 * Writes the grams of set not in common (a bitmap of the same layout) to out, ascending, when out
 * is not null; clears set either way. Returns how many it wrote.
 */
static size_t take(Bits *set, const uint64_t *common, uint64_t *out) {
  size_t j = 0;
  for (size_t s = 0; s < SUMMARY_WORDS; s++) {
    uint64_t touched = set->summary[s];
    if (touched == 0) {
      continue;
    }
    set->summary[s] = 0;
    while (touched != 0) {
      size_t w = s * 64 + (size_t) __builtin_ctzll(touched);
      touched &= touched - 1;
      uint64_t word = set->words[w] & ~common[w];
      set->words[w] = 0;
      while (out != NULL && word != 0) {
        out[j++] = key_of(w * 64 + (size_t) __builtin_ctzll(word));
        word &= word - 1;
      }
    }
  }
  set->distinct = 0;
  return j;
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
 * trigrams. */
static void add_line(Bits *set, const uint8_t *line, size_t n) {
  if (n == 2) {
    set_bit(set, (size_t) (lower(line[0]) << 7 | lower(line[1])));
    return;
  }
  if (n < 3) {
    return;
  }
  size_t t = (size_t) (lower(line[0]) << 7 | lower(line[1]));
  for (size_t i = 2; i < n; i++) {
    t = (t << 7 | (size_t) lower(line[i])) & 0x1FFFFF;
    set_bit(set, TRIGRAM_BASE + t);
  }
}

/*
 * The distinct grams of text[0..length) and of path (GramSet.ofFile: the lines split as
 * SourceLines splits them, on LF, one CR right before an LF removed, a last line without LF kept
 * with a CR it ends with; each line's grams and the path's as GramSet.addLine gives them), those in
 * common (GramSet's bitmap of the common trigrams) left out, ascending; or null when a byte of
 * either is not ASCII (the caller then takes the Java path, which lower-cases Unicode). scratch is
 * the calling thread's all-zero bitmap, left all zero. An IllegalArgumentException is thrown
 * unless 0 <= length <= text.length, common has GRAM_WORDS words and scratch GRAM_WORDS +
 * SUMMARY_WORDS (GramSet's GRAM_WORDS and SCRATCH_WORDS). The arrays are held
 * (GetPrimitiveArrayCritical) without any JNI call in between. When the result cannot be
 * allocated, NativeMemoryException is thrown (GramSet then takes the Java path for the file); an
 * OutOfMemoryError, when the JVM cannot hold an array.
 */
JNIEXPORT jlongArray JNICALL Java_dev_prismindex_engine_internal_analysis_GramSet_asciiGrams(
    JNIEnv *env, jclass cls, jbyteArray text, jint length, jbyteArray path, jlongArray common,
    jlongArray scratch) {
  (void) cls;
  if (length < 0 || length > (*env)->GetArrayLength(env, text)
      || (*env)->GetArrayLength(env, common) != GRAM_WORDS
      || (*env)->GetArrayLength(env, scratch) != GRAM_WORDS + SUMMARY_WORDS) {
    jclass error = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (error != NULL) {
      (*env)->ThrowNew(env, error, "n-grams: a length does not match the bitmaps' layout");
    }
    return NULL;
  }
  size_t n = (size_t) length;
  size_t path_length = (size_t) (*env)->GetArrayLength(env, path);
  uint8_t *bytes = (*env)->GetPrimitiveArrayCritical(env, text, NULL);
  uint8_t *path_bytes = bytes == NULL ? NULL
      : (*env)->GetPrimitiveArrayCritical(env, path, NULL);
  uint64_t *commons = path_bytes == NULL ? NULL
      : (*env)->GetPrimitiveArrayCritical(env, common, NULL);
  uint64_t *bits = commons == NULL ? NULL
      : (*env)->GetPrimitiveArrayCritical(env, scratch, NULL);
  if (bits == NULL) {
    if (commons != NULL) {
      (*env)->ReleasePrimitiveArrayCritical(env, common, commons, JNI_ABORT);
    }
    if (path_bytes != NULL) {
      (*env)->ReleasePrimitiveArrayCritical(env, path, path_bytes, JNI_ABORT);
    }
    if (bytes != NULL) {
      (*env)->ReleasePrimitiveArrayCritical(env, text, bytes, JNI_ABORT);
    }
    return NULL; /* an OutOfMemoryError is pending */
  }
  Bits set = {bits, bits + GRAM_WORDS, 0};
  int all_ascii = ascii(bytes, n) && ascii(path_bytes, path_length);
  for (size_t start = 0; all_ascii && start < n;) {
    const uint8_t *lf = memchr(bytes + start, '\n', n - start);
    if (lf == NULL) {
      add_line(&set, bytes + start, n - start);
      break;
    }
    size_t at = (size_t) (lf - bytes);
    size_t end = at > start && bytes[at - 1] == '\r' ? at - 1 : at;
    add_line(&set, bytes + start, end - start);
    start = at + 1;
  }
  if (all_ascii) {
    add_line(&set, path_bytes, path_length);
  }
  uint64_t *out = all_ascii ? prism_malloc((set.distinct > 0 ? set.distinct : 1) * sizeof(uint64_t))
      : NULL;
  size_t j = take(&set, commons, out);
  (*env)->ReleasePrimitiveArrayCritical(env, scratch, bits, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, common, commons, JNI_ABORT);
  (*env)->ReleasePrimitiveArrayCritical(env, path, path_bytes, JNI_ABORT);
  (*env)->ReleasePrimitiveArrayCritical(env, text, bytes, JNI_ABORT);
  if (!all_ascii) {
    return NULL;
  }
  if (out == NULL) {
    prism_throw_no_memory(env, "n-grams: native memory exhausted");
    return NULL;
  }
  jlongArray result = (*env)->NewLongArray(env, (jsize) j);
  if (result != NULL) {
    (*env)->SetLongArrayRegion(env, result, 0, (jsize) j, (const jlong *) out);
  }
  free(out);
  return result;
}
