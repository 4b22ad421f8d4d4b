package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.testing.SegmentDamage;
import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small index built from nothing ends as one segment, whatever the number of indexing threads
 * (each of which flushes a segment of its own); later runs keep Lucene's merge policy.
 */
class CompactionTest {

  private static final String CHANGED =
      "package gen;\n\nclass Gen3 { int changed() { return 1; } }\n";

  @TempDir Path root;

  private int segments() throws Exception {
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader r = DirectoryReader.open(dir)) {
      return r.leaves().size();
    }
  }

  private HybridIndex open() throws Exception {
    return HybridIndex.open(HybridIndexOptions.builder(root).semantic(false).threads(2).build());
  }

  @Test
  void aSmallIndexBuiltFromNothingIsOneSegmentAndLaterRunsAddTheirs() throws Exception {
    SegmentDamage.generate(root, 200);
    try (HybridIndex index = open()) {
      IndexRunStats built = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(built.added()).isEqualTo(200);
      assertThat(segments()).isEqualTo(1);
      assertThat(index.search("method7Value3", SearchOpts.lexical(5))).isNotEmpty();

      write(root, "src/gen/Gen3.java", CHANGED);
      IndexRunStats changed = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(changed.changed()).isEqualTo(1);
      assertThat(segments()).isEqualTo(2);
    }
  }

  @Test
  void aFullRebuildOfASmallIndexIsOneSegmentToo() throws Exception {
    SegmentDamage.generate(root, 200);
    try (HybridIndex index = open()) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "src/gen/Gen3.java", CHANGED);
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(segments()).isEqualTo(2);
      index.refresh(RefreshOptions.FULL);
      assertThat(segments()).isEqualTo(1);
    }
  }
}
