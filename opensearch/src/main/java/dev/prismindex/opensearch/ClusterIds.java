package dev.prismindex.opensearch;

import dev.prismindex.engine.internal.pipeline.Hashing;

/**
 * Document ids in a repository's cluster index: derived from the path (a BLAKE3 hash, so any path
 * fits the 512-byte id limit), one FILE, one skip record and one id per chunk ordinal.
 */
final class ClusterIds {

  private ClusterIds() {}

  static String file(String path) {
    return "f:" + Hashing.blake3(path);
  }

  static String skipped(String path) {
    return "s:" + Hashing.blake3(path);
  }

  static String chunk(String path, int ordinal) {
    return "c:" + Hashing.blake3(path) + ":" + ordinal;
  }

  /** The id of the document holding the index's commit record. */
  static final String META = "meta";

  /** Eight hex digits of the BLAKE3 hash of {@code text}. */
  static String shortHash(String text) {
    return Hashing.blake3(text).substring(0, 8);
  }
}
