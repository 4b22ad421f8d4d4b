package dev.prismindex.engine.internal.store;

import java.util.HexFormat;
import org.bouncycastle.crypto.digests.Blake3Digest;

/**
 * BLAKE3-256 through BouncyCastle ({@code Blake3Digest}), chosen over commons-codec's {@code Blake3}
 * by measurement (see {@code docs/engine.md}).
 */
public final class Hashing {

  private Hashing() {}

  /** BLAKE3-256 of {@code bytes[0..length)} as 64 lower-case hex digits. */
  public static String blake3(byte[] bytes, int length) {
    Blake3Digest digest = new Blake3Digest(256);
    digest.update(bytes, 0, length);
    byte[] out = new byte[32];
    digest.doFinal(out, 0);
    return HexFormat.of().formatHex(out);
  }

  /** BLAKE3-256 of a string's UTF-8 bytes. */
  public static String blake3(String text) {
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return blake3(b, b.length);
  }

  /** BLAKE3-256 of a string's UTF-8 bytes, as 32 raw bytes (the chunk-text key). */
  public static byte[] blake3Raw(String text) {
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Blake3Digest digest = new Blake3Digest(256);
    digest.update(b, 0, b.length);
    byte[] out = new byte[32];
    digest.doFinal(out, 0);
    return out;
  }
}
