package dev.prismindex.engine.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.store.LuceneSink;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.WalkedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A large run leaves nothing in the writer's buffers for the commit's one thread. */
class IndexerFlushTest {

  @TempDir Path root;

  private List<WalkedFile> files(int n) throws IOException {
    List<WalkedFile> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String path = "src/F" + i + ".java";
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "class F" + i + " {\n  int value" + i + "() { return " + i
          + "; }\n}\n");
      out.add(new WalkedFile(path, Files.size(file),
          Files.getLastModifiedTime(file).toInstant().toEpochMilli() * 1_000_000));
    }
    return out;
  }

  private static long count(IndexWriter writer, String type) throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      return new IndexSearcher(reader).count(new TermQuery(new Term(Schema.TYPE, type)));
    }
  }

  private Indexer indexer(IndexWriter writer) {
    return new Indexer(root, new LuceneSink(writer), new Chunker(),
        FileRules.of(HybridIndexOptions.builder(root).build()), 1 << 20, Clock.systemUTC(),
        new HashMap<>());
  }

  @Test
  void theWorkersFlushTheirBuffersAfterALargeRun() throws IOException {
    List<WalkedFile> files = files(Indexer.PARALLEL_FLUSH_MIN_FILES);
    try (IndexWriter writer = new IndexWriter(new ByteBuffersDirectory(),
        new IndexWriterConfig(new CodeAnalyzer()).setRAMBufferSizeMB(256))) {
      indexer(writer).runWalk(files, false, 2);
      assertThat(writer.numRamDocs()).isZero();
      assertThat(count(writer, Schema.TYPE_FILE)).isEqualTo(files.size());
      assertThat(count(writer, Schema.TYPE_CHUNK)).isGreaterThanOrEqualTo(files.size());
    }
  }

  @Test
  void aSmallRunLeavesItsDocumentsToTheCommit() throws IOException {
    List<WalkedFile> files = files(3);
    try (IndexWriter writer = new IndexWriter(new ByteBuffersDirectory(),
        new IndexWriterConfig(new CodeAnalyzer()).setRAMBufferSizeMB(256))) {
      indexer(writer).runWalk(files, false, 2);
      assertThat(writer.numRamDocs()).isPositive();
      assertThat(count(writer, Schema.TYPE_FILE)).isEqualTo(3);
    }
  }
}
