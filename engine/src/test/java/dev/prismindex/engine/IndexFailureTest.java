package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.testing.SegmentDamage;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexState;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexFailureTest {

  @TempDir Path root;

  private Path lucene() {
    return root.resolve(".prism-index/lucene");
  }

  private void buildIndex() throws Exception {
    write(root, "a.txt", "alpha needle\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
  }

  private void rewriteMetadata(String key, String value) throws Exception {
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      Map<String, String> data;
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        data = new HashMap<>(r.getIndexCommit().getUserData());
      }
      data.put(key, value);
      w.setLiveCommitData(data.entrySet(), true);
      w.commit();
    }
  }

  /** Opening the index fails with an {@link IncompatibleIndexException} naming both values. */
  private AbstractThrowableAssert<?, ? extends Throwable> assertRefused(String what, String found,
      String expected) {
    return assertThatThrownBy(() -> TestRepos.open(root))
        .isInstanceOfSatisfying(IncompatibleIndexException.class, e -> {
          assertThat(e.what()).isEqualTo(what);
          assertThat(e.found()).isEqualTo(found);
          assertThat(e.expected()).isEqualTo(expected);
        });
  }

  @Test
  void anotherFormatVersionIsRefusedNamingBothVersions() throws Exception {
    buildIndex();
    rewriteMetadata(Schema.META_FORMAT, "0");
    assertRefused("format", "0", Schema.FORMAT_VERSION)
        .hasMessageContaining("format version 0 found, " + Schema.FORMAT_VERSION + " expected");
  }

  @Test
  void anIndexOfThePreviousFormatWithFloatVectorsIsRefusedWithTheRebuildMessage() throws Exception {
    // Format 5 stored float32 vectors (vector_384); format 6 stores int8 ones (vector_i8_384).
    buildIndex();
    rewriteMetadata(Schema.META_FORMAT, "5");
    assertThat(Schema.FORMAT_VERSION).isEqualTo("11");
    assertThatThrownBy(() -> TestRepos.open(root))
        .isInstanceOf(IncompatibleIndexException.class)
        .hasMessageContaining("format version 5 found, 11 expected; rebuild the index");
  }

  @Test
  void anIndexOfFormat10IsReadWithoutAModelAndRefusedWithOne() throws Exception {
    // Formats 9 and 10 packed their vectors under an HNSW graph, in a format no longer known.
    buildIndex();
    rewriteMetadata(Schema.META_FORMAT, "10");
    rewriteMetadata(Schema.META_EMBEDDER_ID, "");
    try (HybridIndex index = TestRepos.open(root)) {
      assertThat(index).isNotNull();
    }
    rewriteMetadata(Schema.META_EMBEDDER_ID, "prism-code-v1-t1");
    assertRefused("format", "10", Schema.FORMAT_VERSION);
    rewriteMetadata(Schema.META_FORMAT, "9");
    assertRefused("format", "9", Schema.FORMAT_VERSION);
  }

  @Test
  void aChunkKeyLengthThisCodeDoesNotWriteIsRefused() throws Exception {
    buildIndex();
    rewriteMetadata(Schema.META_CHUNK_KEY_BYTES, "20");
    assertRefused("chunk key length", "20", Integer.toString(Schema.CHUNK_KEY_BYTES));
  }

  @Test
  void anotherAnalyzerVersionIsRefused() throws Exception {
    buildIndex();
    rewriteMetadata(Schema.META_ANALYZER, "code-0");
    assertThatThrownBy(() -> TestRepos.open(root))
        .isInstanceOf(IncompatibleIndexException.class)
        .hasMessageContaining("analyzer version code-0 found");
  }

  @Test
  void anIndexWithEveryGramIsSearchedAndUpdatedThenRecordsTheNewVersion() throws Exception {
    // code-1+prose-1 indexed the common trigrams too: a superset of what this version asks for.
    buildIndex();
    rewriteMetadata(Schema.META_ANALYZER, "code-1+prose-1");
    try (HybridIndex index = TestRepos.open(root)) {
      assertThat(index.engineStatus().analyzerVersion()).isEqualTo("code-1+prose-1");
      assertThat(literalSearch(index, "needle", false, null, 10, false, AbortSignal.create())
          .matches()).extracting(LiteralMatch::path).containsExactly("a.txt");
      write(root, "b.txt", "import needle\n");
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.engineStatus().analyzerVersion()).isEqualTo(HybridIndex.ANALYZER_VERSION)
          .isNotEqualTo("code-1+prose-1");
      assertThat(literalSearch(index, "import", false, null, 10, false, AbortSignal.create())
          .matches()).extracting(LiteralMatch::path).containsExactly("b.txt");
    }
  }

  @Test
  void garbledSegmentFilesRaiseCorruptIndexException() throws Exception {
    buildIndex();
    try (Stream<Path> files = Files.list(lucene())) {
      for (Path f : files.filter(p -> !p.getFileName().toString().equals("write.lock")).toList()) {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
          long len = raf.length();
          for (long pos = 0; pos < Math.min(len, 64); pos++) {
            raf.seek(pos);
            raf.write(0x5A);
          }
        }
      }
    }
    assertThatThrownBy(() -> TestRepos.open(root))
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining("corrupt index");
  }

  private HybridIndex lexicalOnly() throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(root).semantic(false).build());
  }

  private void buildGeneratedIndex() throws IOException {
    SegmentDamage.generate(root, 60);
    try (HybridIndex index = lexicalOnly()) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
  }

  private static IndexQuery literal(String q) {
    return new IndexQuery(q, SearchMode.INDEXED_LITERAL, null, 10, false, AbortSignal.create(),
        30_000);
  }

  @Test
  void randomBytesInTheTermsDictionaryAreACorruptIndexNotARuntimeException() throws Exception {
    buildGeneratedIndex();
    // All of the terms dictionary: which of its blocks a term lookup reads (and 4 KiB in the
    // middle may miss) depends on the chunking.
    SegmentDamage.garble(root.resolve(".prism-index"), ".tim", Integer.MAX_VALUE);
    try (HybridIndex index = lexicalOnly()) {
      // Ranked search reads the terms dictionary (literal search reads the gram index and the
      // paths, not it); once a read found the damage, literal search is refused too.
      assertThatThrownBy(() -> index.search("method7Value", SearchOpts.lexical(5)))
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("corrupt index at " + root.resolve(".prism-index"));
      // The seam's status no longer claims a servable index.
      assertThat(index.status().state()).isEqualTo(IndexState.FAILED);
      assertThatThrownBy(() -> index.search(literal("method7Value")))
          .isInstanceOf(CorruptIndexException.class);
      assertThatThrownBy(() -> index.verify(false)).isInstanceOf(CorruptIndexException.class);

      index.refresh(RefreshOptions.FULL);
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      assertThat(index.search(literal("method7Value3(")).hits()).hasSize(1);
      index.verify(true);
    }
  }

  @Test
  void verifyFindsDamageThatSearchesDoNotReadAndAVerifyRunRefusesIt() throws Exception {
    buildGeneratedIndex();
    SegmentDamage.garble(root.resolve(".prism-index"), ".doc");
    try (HybridIndex index = lexicalOnly()) {
      assertThatThrownBy(() -> index.verify(false))
          .isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("checksum");
      assertThat(index.status().state()).isEqualTo(IndexState.FAILED);
      assertThatThrownBy(() -> index.verify(true)).isInstanceOf(CorruptIndexException.class);
      assertThatThrownBy(() -> index.refresh(RefreshOptions.VERIFY))
          .isInstanceOf(CorruptIndexException.class);

      IndexRunStats rebuilt = index.refresh(RefreshOptions.FULL);
      assertThat(rebuilt.added()).isEqualTo(60);
      index.verify(true);
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      assertThat(index.search("method7Value3", SearchOpts.lexical(5))).isNotEmpty();
    }
    try (HybridIndex reopened = lexicalOnly()) {
      reopened.verify(true);
    }
  }

  @Test
  void aHomeThatIsAFileIsRefusedAndKept() throws Exception {
    Path home = root.resolve(".prism-index");
    Files.writeString(home, "not an index\n");
    assertThatThrownBy(() -> lexicalOnly())
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(CorruptIndexException.class)
        .hasMessageContaining(home + ": not a directory");
    assertThat(Files.readString(home)).isEqualTo("not an index\n");
  }

  @Test
  void aLuceneDirectoryThatIsAFileIsACorruptIndex() throws Exception {
    Files.createDirectories(root.resolve(".prism-index"));
    Files.writeString(lucene(), "x");
    assertThatThrownBy(() -> lexicalOnly())
        .isInstanceOf(CorruptIndexException.class)
        .hasMessageContaining(lucene() + ": not a directory");
  }

  @Test
  void aSecondWriterGetsAClearError() throws Exception {
    buildIndex();
    try (HybridIndex index = TestRepos.open(root);
        FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter holder = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      assertThat(holder.isOpen()).isTrue();
      write(root, "b.txt", "more\n");
      assertThatThrownBy(() -> index.refresh(RefreshOptions.INCREMENTAL))
          .isInstanceOf(IndexLockedException.class)
          .hasMessageContaining("write.lock");
      assertThat(index.search("needle", SearchOpts.lexical(3))).hasSize(1);
    }
  }

  @Test
  void closedIndexRejectsCalls() throws Exception {
    HybridIndex index = TestRepos.open(root);
    index.close();
    index.close();
    assertThatThrownBy(() -> index.search("x", SearchOpts.lexical(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(List.of()).isEmpty();
  }
}
