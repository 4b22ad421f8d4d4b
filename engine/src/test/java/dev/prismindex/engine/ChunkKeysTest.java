package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.pyFunction;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.pipeline.ChunkKeys;
import dev.prismindex.engine.internal.store.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index built with semantic search off is lexical-only: its chunks carry no vector keys (no
 * embedded text built or hashed, a smaller index). It gets them, every file rewritten, from the
 * first whole run that embeds; an index with keys keeps them; an index started with semantic
 * search on has them from its first run, embedding or not. Never a mix. A key is 16 bytes in an
 * index that had none before format 8, 32 in one keyed before: an index keeps its key length.
 */
class ChunkKeysTest {

  @TempDir Path root;

  private static final RefreshOptions LEXICAL = RefreshOptions.INCREMENTAL.withEmbedding(false);

  /** Builds the lexical-only index ({@code index --no-semantic}). */
  private void indexLexicalOnly() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      IndexRunStats lexical = index.refresh(RefreshOptions.INCREMENTAL.withLexicalOnly());
      assertThat(lexical.chunksWritten()).isEqualTo(3);
      assertThat(lexical.chunksEmbedded()).isZero();
    }
    assertThat(keys()).isEqualTo(Map.entry("false", 0L));
  }

  @Test
  void withoutSemanticSearchANewIndexIsLexicalOnly() throws Exception {
    writeFiles();
    try (HybridIndex index =
        HybridIndex.open(HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
    assertThat(keys()).isEqualTo(Map.entry("false", 0L));
  }

  @Test
  void aLexicalOnlyRunThatEmbedsIsRefused() {
    assertThat(RefreshOptions.INCREMENTAL.withLexicalOnly().lexicalOnly()).isTrue();
    assertThat(RefreshOptions.INCREMENTAL.withLexicalOnly().embed()).isFalse();
    assertThat(RefreshOptions.INCREMENTAL.withLexicalOnly().withEmbedding(true).lexicalOnly())
        .isFalse();
    assertThatThrownBy(() -> new RefreshOptions(false, false, true, IndexProgressListener.NONE,
        java.util.Set.of(), true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not embed");
    assertThatThrownBy(() -> new ChunkKeys(false, true, Schema.CHUNK_KEY_BYTES, null, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** The lengths of the live index's chunk keys and of its vector keys. */
  private Map<String, Set<Integer>> keyLengths() throws Exception {
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader r = DirectoryReader.open(dir)) {
      Map<String, Set<Integer>> out = new TreeMap<>();
      Set<Integer> chunkKeys = new TreeSet<>();
      Terms terms = MultiTerms.getTerms(r, Schema.CHUNK_HASH);
      TermsEnum te = terms == null ? TermsEnum.EMPTY : terms.iterator();
      for (BytesRef t = te.next(); t != null; t = te.next()) {
        chunkKeys.add(t.length);
      }
      out.put(Schema.CHUNK_HASH, chunkKeys);
      Set<Integer> vectorKeys = new TreeSet<>(); // doc values (vec_key; vec_hash before format 9)
      for (LeafReaderContext leaf : r.leaves()) {
        for (String field : List.of(Schema.VEC_KEY, Schema.VEC_HASH)) {
          BinaryDocValues values = DocValues.getBinary(leaf.reader(), field);
          for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS;
              d = values.nextDoc()) {
            vectorKeys.add(values.binaryValue().length);
          }
        }
      }
      out.put(Schema.VEC_HASH, vectorKeys);
      out.put("recorded", Set.of(Integer.parseInt(r.getIndexCommit().getUserData()
          .getOrDefault(Schema.META_CHUNK_KEY_BYTES, "0"))));
      return out;
    }
  }

  private static Map<String, Set<Integer>> lengths(int keyBytes) {
    return Map.of(Schema.CHUNK_HASH, Set.of(keyBytes), Schema.VEC_HASH, Set.of(keyBytes),
        "recorded", Set.of(keyBytes));
  }

  /** Commits the last commit's user data again, changed by {@code edit}: an older format. */
  private void editCommitData(Consumer<Map<String, String>> edit) throws Exception {
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      Map<String, String> data;
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        data = new HashMap<>(r.getIndexCommit().getUserData());
      }
      edit.accept(data);
      w.setLiveCommitData(data.entrySet(), true);
      w.commit();
    }
  }

  /** Commits an empty index with {@code meta} as its user data: an index of an older format. */
  private void commitEmptyIndex(Map<String, String> meta) throws Exception {
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      w.setLiveCommitData(meta.entrySet(), true);
      w.commit();
    }
  }

  @Test
  void aNewIndexHas16ByteKeys() throws Exception {
    writeFiles();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(keyLengths()).isEqualTo(lengths(16));
      assertThat(index.search("memory eviction of the cache", SearchOpts.semantic(5)))
          .extracting(Hit::path).contains("util/cache.py");
    }
  }

  @Test
  void anIndexWith32ByteKeysKeepsThemAndItsVectors() throws Exception {
    // Formats 6 and 7 keyed chunks with the whole BLAKE3-256 and recorded no length.
    Files.createDirectories(root.resolve(".prism-index/lucene"));
    commitEmptyIndex(Map.of(Schema.META_FORMAT, "7", Schema.META_ANALYZER, CodeAnalyzer.VERSION,
        Schema.META_CHUNK_KEYS, "true"));
    writeFiles();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.chunksEmbedded()).isEqualTo(3);
      assertThat(keyLengths()).isEqualTo(lengths(32));
      write(root, "util/cache.py", pyFunction("cache_evict", "memory")
          + pyFunction("cache_fill", "warming"));
      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.chunksReused()).isEqualTo(1); // cache_evict's vector, found by its key
      assertThat(second.chunksEmbedded()).isEqualTo(1);
      assertThat(keyLengths()).isEqualTo(lengths(32));
      assertThat(index.engineStatus().formatVersion()).isEqualTo(Schema.FORMAT_VERSION);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(index.search("memory eviction of the cache", SearchOpts.semantic(5)))
          .extracting(Hit::path).contains("util/cache.py");
    }
  }

  @Test
  void aLexicalOnlyIndexOfTheFormatBeforeTakes16ByteKeysWhenRekeyed() throws Exception {
    writeFiles();
    indexLexicalOnly();
    editCommitData(data -> {
      data.put(Schema.META_FORMAT, "7");
      data.remove(Schema.META_CHUNK_KEY_BYTES);
    });
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(keyLengths()).isEqualTo(lengths(16));
    }
  }

  private void writeFiles() throws Exception {
    write(root, "report.py", pyFunction("monthly_total", "revenue")
        + pyFunction("weekly_average", "latency"));
    write(root, "util/cache.py", pyFunction("cache_evict", "memory"));
  }

  /** The commit's chunk-keys flag and the number of live chunk documents with a key. */
  private Map.Entry<String, Long> keys() throws Exception {
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader r = DirectoryReader.open(dir)) {
      Terms terms = MultiTerms.getTerms(r, Schema.CHUNK_HASH);
      Bits live = MultiBits.getLiveDocs(r);
      long keyed = 0;
      TermsEnum te = terms == null ? TermsEnum.EMPTY : terms.iterator();
      while (te.next() != null) {
        PostingsEnum docs = te.postings(null, PostingsEnum.NONE);
        for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
          keyed += live == null || live.get(d) ? 1 : 0;
        }
      }
      String flag = r.getIndexCommit().getUserData().getOrDefault(Schema.META_CHUNK_KEYS, "absent");
      return Map.entry(flag, keyed);
    }
  }

  @Test
  void aLexicalOnlyIndexHasNoKeysUntilAWholeRunEmbedsWhichRewritesEveryFile() throws Exception {
    writeFiles();
    indexLexicalOnly();
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      assertThat(index.engineStatus().coverage().complete()).isFalse();
      IndexRunStats notEmbedding = index.refresh(LEXICAL); // a search's refresh: no rewrite
      assertThat(notEmbedding.committed()).isFalse();
      assertThat(keys()).isEqualTo(Map.entry("false", 0L));

      IndexRunStats semantic = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(semantic.changed()).isEqualTo(2); // rekeyed, though no file changed
      assertThat(semantic.chunksWritten()).isEqualTo(3);
      assertThat(semantic.chunksEmbedded()).isEqualTo(3);
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(index.search("memory eviction of the cache", SearchOpts.semantic(5)))
          .extracting(Hit::path).contains("util/cache.py");

      IndexRunStats settled = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(settled.changed()).isZero();
      assertThat(settled.committed()).isFalse();
    }
  }

  @Test
  void aScopedRunThatEmbedsLeavesALexicalOnlyIndexWithoutKeys() throws Exception {
    writeFiles();
    indexLexicalOnly();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      write(root, "util/cache.py", pyFunction("cache_fill", "warming"));
      IndexRunStats scoped = index.refresh(RefreshOptions.INCREMENTAL.withScope(List.of("util")));
      assertThat(scoped.changed()).isEqualTo(1);
      assertThat(scoped.chunksEmbedded()).isZero();
      assertThat(keys()).isEqualTo(Map.entry("false", 0L));
      assertThat(index.engineStatus().vectors()).isZero();

      IndexRunStats whole = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(whole.chunksEmbedded()).isEqualTo(3);
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
    }
  }

  @Test
  void anIndexStartedWithSemanticSearchOnHasKeysWithoutEmbeddingAndKeepsThem() throws Exception {
    writeFiles();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(LEXICAL); // a watch's first refresh: its embeddings follow later
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
      write(root, "util/cache.py", pyFunction("cache_fill", "warming"));
      IndexRunStats lexical = index.refresh(LEXICAL);
      assertThat(lexical.changed()).isEqualTo(1);
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
      assertThat(index.engineStatus().coverage().complete()).isFalse();
    }
    try (HybridIndex index =
        HybridIndex.open(HybridIndexOptions.builder(root).semantic(false).build())) {
      write(root, "util/cache.py", pyFunction("cache_drop", "eviction"));
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
    }
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      IndexRunStats semantic = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(semantic.changed()).isZero(); // keyed: no rewrite
      assertThat(semantic.chunksEmbedded()).isEqualTo(3);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void anIndexOfTheFormatBeforeIsReadAsKeyedAndRecordsTheNewFormat() throws Exception {
    writeFiles();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
    // Format 6 had no chunk-keys flag: every chunk carried its key.
    editCommitData(data -> {
      data.put(Schema.META_FORMAT, "6");
      data.remove(Schema.META_CHUNK_KEYS);
    });
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      assertThat(index.engineStatus().formatVersion()).isEqualTo("6");
      write(root, "util/cache.py", pyFunction("cache_fill", "warming"));
      IndexRunStats lexical = index.refresh(LEXICAL);
      assertThat(lexical.changed()).isEqualTo(1);
      assertThat(keys()).isEqualTo(Map.entry("true", 3L));
      assertThat(index.engineStatus().formatVersion()).isEqualTo(Schema.FORMAT_VERSION);
    }
  }
}
