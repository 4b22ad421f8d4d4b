package dev.prismindex.engine.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.commons.codec.digest.Blake3;
import org.apache.lucene.util.BytesRef;

/**
 * BLAKE3-256, the one hash the index stores (file hashes of the manifest, chunk-text keys of the
 * embedding cache, the manifest digest), computed by commons-codec's {@code Blake3}.
 *
 * <p>The algorithm is part of the on-disk format, the library is not: any BLAKE3 gives the same
 * bytes, and {@code HashingTest} pins the official test vectors. commons-codec replaced
 * BouncyCastle (issue 18): a dependency the engine already had through JGit instead of a 7 MB
 * crypto provider, for about half BouncyCastle's throughput, a percent or two of an indexing run
 * (docs/benchmarks.md, section 9).
 */
public final class Hashing {

  private Hashing() {}

  /** BLAKE3-256 of {@code bytes[0..length)} as 64 lower-case hex digits. */
  public static String blake3(byte[] bytes, int length) {
    return HexFormat.of().formatHex(digest(bytes, length));
  }

  /** BLAKE3-256 of a string's UTF-8 bytes. */
  public static String blake3(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return blake3(b, b.length);
  }

  /**
   * The first {@code length} bytes of the BLAKE3 output of a string's UTF-8 bytes: a chunk-text key
   * ({@link Schema#chunkKeyBytes}). BLAKE3's shorter outputs are prefixes of its longer ones, so a
   * 16-byte key is the first half of the 32-byte one.
   */
  public static byte[] chunkKey(String text, int length) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[length];
    Blake3.initHash().update(b, 0, b.length).doFinalize(out);
    return out;
  }

  /**
   * A file hash ({@link #blake3(byte[], int)}) as the manifest stores it ({@link Schema#HASH}): its
   * 32 bytes. Anything but 64 hex digits (never computed here) is kept as its characters, which
   * {@link #fromStored} gives back and no computed hash equals.
   */
  static BytesRef toStored(String hex) {
    if (hex.length() == 64) {
      try {
        return new BytesRef(HexFormat.of().parseHex(hex));
      } catch (IllegalArgumentException e) {
        // not hex: kept as it is
      }
    }
    return new BytesRef(hex);
  }

  /**
   * A stored file hash as 64 hex digits: 32 bytes since format 8; before, the hex digits' ASCII
   * bytes, returned as they are.
   */
  static String fromStored(BytesRef b) {
    return b.length == 32 ? HexFormat.of().formatHex(b.bytes, b.offset, b.offset + b.length)
        : new String(b.bytes, b.offset, b.length, StandardCharsets.UTF_8);
  }

  private static byte[] digest(byte[] bytes, int length) {
    byte[] out = new byte[32];
    Blake3.initHash().update(bytes, 0, length).doFinalize(out);
    return out;
  }
}
