package dev.prismindex.opensearch;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.commons.codec.digest.Blake3;

/**
 * Document ids in a repository's cluster index: derived from the path (a BLAKE3 hash, so any path
 * fits the 512-byte id limit), one FILE, one skip record and one id per chunk ordinal.
 */
final class ClusterIds {

  private ClusterIds() {}

  static String file(String path) {
    return "f:" + blake3(path);
  }

  static String skipped(String path) {
    return "s:" + blake3(path);
  }

  static String chunk(String path, int ordinal) {
    return "c:" + blake3(path) + ":" + ordinal;
  }

  /** The id of the document holding the index's commit record. */
  static final String META = "meta";

  /** Eight hex digits of the BLAKE3 hash of {@code text}. */
  static String shortHash(String text) {
    return blake3(text).substring(0, 8);
  }

  /** BLAKE3-256 of {@code text}'s UTF-8 bytes, 64 lower-case hex digits (the engine's hash). */
  private static String blake3(String text) {
    return HexFormat.of().formatHex(Blake3.hash(text.getBytes(StandardCharsets.UTF_8)));
  }
}
