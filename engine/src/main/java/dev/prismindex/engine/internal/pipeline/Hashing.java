package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.internal.NativeLibrary;
import dev.prismindex.engine.internal.store.Schema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.apache.commons.codec.digest.Blake3;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BLAKE3-256, the one hash the index stores (file hashes of the manifest, chunk-text keys of the
 * embedding cache, the manifest digest), computed by the official BLAKE3 C implementation in the
 * engine's native library where it is loaded ({@link NativeLibrary}: linux-x86_64), else by
 * commons-codec's {@code Blake3}.
 *
 * <p>The algorithm is part of the on-disk format, the library is not: any BLAKE3 gives the same
 * bytes, and {@code HashingTest} pins the official test vectors on both paths and compares them on
 * inputs of many lengths. commons-codec replaced BouncyCastle (issue 18): a dependency the engine
 * already had through JGit instead of a 7 MB crypto provider, for about half BouncyCastle's
 * throughput (the hashing run log, docs/runs/README.md). The C code, which picks SSE2, SSE4.1, AVX2 or AVX-512
 * code at run time, hashes a 64 KiB buffer about 19x faster than commons-codec (docs/benchmarks.md,
 * section 9), in one JNI call per hash.
 */
public final class Hashing {

  private static final Logger LOG = LoggerFactory.getLogger(Hashing.class);

  private Hashing() {}

  /**
   * Whether the native library hashes: loaded, and it agreed with commons-codec at start. Decided
   * at the first hash, not when the class is first used: a search reads stored hashes ({@link
   * #fromStored}) and should not load the library for them.
   */
  private static final class Native {
    static final boolean ON = NativeLibrary.loaded() && nativeAgrees();
  }

  /** Whether the hashes are computed by the native library (else by commons-codec). */
  static boolean nativeHashing() {
    return Native.ON;
  }

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
    hash(b, b.length, out);
    return out;
  }

  /**
   * A file hash ({@link #blake3(byte[], int)}) as the manifest stores it ({@link Schema#HASH}): its
   * 32 bytes. Anything but 64 hex digits (never computed here) is kept as its characters, which
   * {@link #fromStored} gives back and no computed hash equals.
   */
  public static BytesRef toStored(String hex) {
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
  public static String fromStored(BytesRef b) {
    return b.length == 32 ? HexFormat.of().formatHex(b.bytes, b.offset, b.offset + b.length)
        : new String(b.bytes, b.offset, b.length, StandardCharsets.UTF_8);
  }

  /** BLAKE3-256 of {@code bytes[0..length)}: its 32 bytes. */
  public static byte[] digest(byte[] bytes, int length) {
    byte[] out = new byte[32];
    hash(bytes, length, out);
    return out;
  }

  /**
   * The first {@code out.length} bytes of the BLAKE3 output of {@code bytes[0..length)} into
   * {@code out}: natively when the library is loaded, else with commons-codec.
   */
  static void hash(byte[] bytes, int length, byte[] out) {
    Objects.checkFromIndexSize(0, length, bytes.length);
    if (out.length > 0 && Native.ON) {
      blake3Native(bytes, length, out);
    } else {
      blake3Java(bytes, length, out);
    }
  }

  /** {@link #hash} by commons-codec: the path without the native library. */
  static void blake3Java(byte[] bytes, int length, byte[] out) {
    Blake3.initHash().update(bytes, 0, length).doFinalize(out);
  }

  /**
   * {@link #hash} by the BLAKE3 C implementation ({@code prism_blake3.c}), once the library is
   * loaded; {@code length} within {@code in}, {@code out} not empty.
   */
  static native void blake3Native(byte[] in, int length, byte[] out);

  /**
   * Whether the native BLAKE3 gives commons-codec's bytes for an input of several chunks (hashed by
   * the SIMD code the CPU has). Run once, while {@link Native} is initialised, it is also the first
   * native hash, the one that detects the CPU's instruction sets: done by one thread, since BLAKE3
   * 1.3.1's C code records them without synchronisation.
   */
  private static boolean nativeAgrees() {
    byte[] input = new byte[10_000];
    for (int i = 0; i < input.length; i++) {
      input[i] = (byte) (i % 251);
    }
    byte[] expected = new byte[32];
    blake3Java(input, input.length, expected);
    byte[] actual = new byte[32];
    try {
      blake3Native(input, input.length, actual);
    } catch (LinkageError e) {
      LOG.warn("{} has no BLAKE3; hashing in Java: {}", NativeLibrary.NAME, e.toString());
      return false;
    }
    if (!Arrays.equals(actual, expected)) {
      LOG.error("{} computes BLAKE3 wrongly on this machine; hashing in Java", NativeLibrary.NAME);
      return false;
    }
    return true;
  }
}
