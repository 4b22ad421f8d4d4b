package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContentReaderTest {

  @TempDir Path root;

  @Test
  void oneBufferReadsFileAfterFileAsFreshReadsDo() throws Exception {
    Files.writeString(root.resolve("big.txt"), "x".repeat(5000) + "\nreturn big\n");
    Files.writeString(root.resolve("small.txt"), "return small\n");
    Files.write(root.resolve("binary.bin"), new byte[] {'a', 0, 'b'});
    ContentReader reader = ContentReader.tree(root, 1 << 20);
    ContentReader.Buffer buffer = new ContentReader.Buffer();
    Map<String, Integer> notSearched = new TreeMap<>();

    assertThat(reader.read("big.txt", notSearched, buffer)).isTrue();
    byte[] big = buffer.bytes();
    assertThat(content(buffer)).isEqualTo("x".repeat(5000) + "\nreturn big\n");

    // The smaller file goes into the same array: only its own bytes count.
    assertThat(reader.read("small.txt", notSearched, buffer)).isTrue();
    assertThat(buffer.bytes()).isSameAs(big);
    assertThat(content(buffer)).isEqualTo("return small\n");
    assertThat(buffer.copy()).isEqualTo(reader.read("small.txt", notSearched));

    assertThat(reader.read("binary.bin", notSearched, buffer)).isFalse();
    assertThat(reader.read("gone.txt", notSearched, buffer)).isFalse();
    assertThat(notSearched).containsExactly(Map.entry("binary", 1));
  }

  @Test
  void aReaderOfWholeArraysFillsTheBufferWithoutBeingWrittenInto() {
    byte[] stored = "return stored\n".getBytes(StandardCharsets.UTF_8);
    byte[] kept = stored.clone();
    ContentReader reader = (path, notSearched) -> path.equals("a") ? stored : null;
    ContentReader.Buffer buffer = new ContentReader.Buffer();
    assertThat(reader.read("a", new TreeMap<>(), buffer)).isTrue();
    assertThat(buffer.bytes()).isSameAs(stored);
    // A later read needing room allocates its own array rather than writing into the stored one.
    assertThat(buffer.room(4)).isNotSameAs(stored);
    assertThat(stored).isEqualTo(kept);
    assertThat(reader.read("b", new TreeMap<>(), buffer)).isFalse();
  }

  @Test
  void aFileOverTheKeptSizeGetsAnArrayOfItsOwnAndTheNextSmallFileTheKeptOne() throws Exception {
    int large = ContentReader.Buffer.KEPT_BYTES + 1000;
    Files.writeString(root.resolve("large.txt"), "y".repeat(large - 8) + "\nreturn\n");
    Files.writeString(root.resolve("small.txt"), "return small\n");
    ContentReader reader = ContentReader.tree(root, 1 << 20);
    ContentReader.Buffer buffer = new ContentReader.Buffer();
    Map<String, Integer> notSearched = new TreeMap<>();

    assertThat(reader.read("small.txt", notSearched, buffer)).isTrue();
    byte[] kept = buffer.bytes();
    assertThat(reader.read("large.txt", notSearched, buffer)).isTrue();
    assertThat(buffer.length()).isEqualTo(large);
    assertThat(buffer.bytes()).isNotSameAs(kept).hasSize(large);
    assertThat(content(buffer)).endsWith("\nreturn\n");
    // The large array is not kept: the next file goes back into the kept one.
    assertThat(reader.read("small.txt", notSearched, buffer)).isTrue();
    assertThat(buffer.bytes()).isSameAs(kept);
    assertThat(buffer.room(large - 1)).hasSize(large - 1);
    int kept2 = ContentReader.Buffer.KEPT_BYTES;
    assertThat(buffer.room(kept2)).hasSize(kept2);
    assertThat(notSearched).isEmpty();
  }

  @Test
  void aReleasedBufferIsTakenAgainEmpty() throws Exception {
    Files.writeString(root.resolve("small.txt"), "return small\n");
    ContentReader reader = ContentReader.tree(root, 1 << 20);
    ContentReader.Buffer buffer = ContentReader.Buffer.take();
    assertThat(reader.read("small.txt", new TreeMap<>(), buffer)).isTrue();
    buffer.release();
    assertThat(buffer.length()).isZero();
    ContentReader.Buffer again = ContentReader.Buffer.take();
    assertThat(again.length()).isZero();
    assertThat(reader.read("small.txt", new TreeMap<>(), again)).isTrue();
    assertThat(content(again)).isEqualTo("return small\n");
    again.release();
  }

  private static String content(ContentReader.Buffer b) {
    return new String(Arrays.copyOf(b.bytes(), b.length()), StandardCharsets.UTF_8);
  }
}
