package dev.prismindex.engine.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.util.BytesRef;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The index stores BLAKE3-256 hashes (file hashes in the manifest, chunk-text keys of the embedding
 * cache, the manifest digest), so {@link Hashing} must give exactly BLAKE3's values whatever library
 * computes them: an index written by one implementation is read by another.
 */
class HashingTest {

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
