package dev.prismindex.engine.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.NativeBuild;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The index stores BLAKE3-256 hashes (file hashes in the manifest, chunk-text keys of the embedding
 * cache, the manifest digest), so {@link Hashing} must give exactly BLAKE3's values whatever library
 * computes them: an index written by one implementation is read by another. Two compute them here:
 * the BLAKE3 C implementation in the engine's native library (linux-x86_64) and commons-codec
 * (elsewhere); both must pass the official test vectors and agree on inputs of every size.
 */
class HashingTest {

  @Test
  void hashesNativelyWhereTheLibraryIsBuilt() {
    assertThat(NativeBuild.built()).as("the library is in this build")
        .isEqualTo(NativeBuild.expected());
    assertThat(Hashing.nativeHashing()).as("hashing natively")
        .isEqualTo(NativeBuild.built() && !NativeBuild.switchedOff());
  }

  /**
   * The official test vectors (BLAKE3-team/BLAKE3, {@code test_vectors/test_vectors.json}): input
   * {@code i % 251} for i below {@code length}; the default 32-byte hash. The lengths cross the
   * implementation's boundaries: one 64-byte block, one 1024-byte chunk, several chunks, a tree of
   * chunks.
   */
  @ParameterizedTest(name = "{0} bytes")
  @CsvSource({
      "0,      af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
      "1,      2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213",
      "1023,   10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11",
      "1024,   42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7",
      "1025,   d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444",
      "4097,   9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995",
      "31744,  62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47",
      "102400, bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"})
  void givesTheOfficialTestVectors(int length, String expected) {
    byte[] input = new byte[length];
    for (int i = 0; i < length; i++) {
      input[i] = (byte) (i % 251);
    }
    assertThat(Hashing.blake3(input, length)).isEqualTo(expected);
    byte[] out = new byte[32];
    Hashing.blake3Java(input, length, out);
    assertThat(HexFormat.of().formatHex(out)).as("commons-codec").isEqualTo(expected);
    if (Hashing.nativeHashing()) {
      Arrays.fill(out, (byte) 0);
      Hashing.blake3Native(input, length, out);
      assertThat(HexFormat.of().formatHex(out)).as("native").isEqualTo(expected);
    }
  }

  /**
   * The native library and commons-codec give the same output, 1 to 1 000 bytes of it, for random
   * inputs of the lengths around BLAKE3's block (64 bytes), chunk (1 KiB) and SIMD batch boundaries,
   * past the native code's 1 MiB slices, and of random lengths; each a prefix of a longer buffer.
   */
  @Test
  void theNativeLibraryAndCommonsCodecAgreeOnInputsOfEveryLength() {
    assumeTrue(Hashing.nativeHashing(), "no native library in this build or on this platform");
    Random random = new Random(42);
    List<Integer> lengths = new ArrayList<>(List.of(0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129,
        1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 8192, 16 * 1024 + 1, 65_535, 65_536,
        65_537, 1_000_000, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 7));
    for (int i = 0; i < 200; i++) {
      lengths.add(random.nextInt(i < 150 ? 20_000 : 3_000_000));
    }
    for (int length : lengths) {
      byte[] buffer = new byte[length + random.nextInt(100)];
      random.nextBytes(buffer);
      for (int outLength : new int[] {32, 16, 1, 64, 65, 1000}) {
        byte[] expected = new byte[outLength];
        Hashing.blake3Java(buffer, length, expected);
        byte[] actual = new byte[outLength];
        Hashing.blake3Native(buffer, length, actual);
        assertThat(actual).as("%d bytes, %d out", length, outLength).isEqualTo(expected);
      }
      byte[] key = new byte[16];
      Hashing.hash(buffer, length, key);
      assertThat(HexFormat.of().formatHex(key))
          .isEqualTo(Hashing.blake3(buffer, length).substring(0, 32));
    }
  }

  @Test
  void refusesALengthOutsideTheBuffer() {
    assertThatThrownBy(() -> Hashing.blake3(new byte[3], 4))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Hashing.blake3(new byte[3], -1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void hashesOnlyTheGivenPrefixOfTheBuffer() {
    byte[] buffer = new byte[8192];
    new Random(7).nextBytes(buffer);
    byte[] prefix = Arrays.copyOf(buffer, 5000);
    assertThat(Hashing.blake3(buffer, 5000)).isEqualTo(Hashing.blake3(prefix, prefix.length))
        .isNotEqualTo(Hashing.blake3(buffer, buffer.length));
  }

  @Test
  void aChunkKeyIsThePrefixOfTheTextsHashOfItsLength() {
    String text = "path: src/Main.java\nclass Main { void \u00e9t\u00e9() {} }";
    byte[] whole = Hashing.chunkKey(text, 32);
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    assertThat(HexFormat.of().formatHex(whole)).isEqualTo(Hashing.blake3(text))
        .isEqualTo(Hashing.blake3(utf8, utf8.length));
    assertThat(Hashing.chunkKey(text, 16)).hasSize(16)
        .isEqualTo(Arrays.copyOf(whole, 16));
  }

  @Test
  void aFileHashIsStoredAsItsBytesAndReadBackInBothForms() {
    String hash = Hashing.blake3("a file\n");
    BytesRef stored = Hashing.toStored(hash);
    assertThat(stored.length).isEqualTo(32);
    assertThat(Hashing.fromStored(stored)).isEqualTo(hash);
    // Format 7 and older stored the hex digits' ASCII bytes: read as they are.
    assertThat(Hashing.fromStored(new BytesRef(hash))).isEqualTo(hash);
    // Not a hash (a damaged or foreign manifest): kept, and never equal to a computed one.
    for (String bad : List.of("", "xyz", "g".repeat(64), hash.substring(2))) {
      assertThat(Hashing.fromStored(Hashing.toStored(bad))).isEqualTo(bad).isNotEqualTo(hash);
    }
  }
}
