package dev.prismindex.engine.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.store.ByteArrayDataInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only failures thrown by Lucene's code make the engine verify the index's checksums: a caller's
 * bad argument, an interruption or a working-tree file never costs a read of the whole index.
 */
class ThrownByLuceneTest {

  @Test
  void aLuceneDecoderFailingOnBadBytesIsSuspect() {
    byte[] junk = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
    Throwable t = catchThrowable(() -> new ByteArrayDataInput(junk).readVInt());
    assertThat(t).isNotNull();
    assertThat(Damage.thrownByLucene(t)).isTrue();
  }

  @Test
  void ourOwnArgumentChecksAndWorkingTreeFilesAreNot(@TempDir Path dir) {
    Throwable bad = catchThrowable(() -> {
      throw new IllegalArgumentException("query exceeds 4096 byte pattern limit");
    });
    Throwable missing = catchThrowable(() -> Files.readAllBytes(dir.resolve("gone.txt")));
    assertThat(missing).isNotNull();
    assertThat(Damage.thrownByLucene(bad)).isFalse();
    assertThat(Damage.thrownByLucene(missing)).isFalse();
  }
}
