package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.pyFunction;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.codec.Int8Vectors;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.testing.SegmentDamage;
import dev.prismindex.index.IndexState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnByteVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new index stores each vector as packed codes only ({@link VectorCode#PACKED}, format 9): one
 * byte vector field, cosine, no float field, every vector scaled to the largest code, its key as
 * doc values only; semantic
 * search over them finds the chunk whose text is the query. An index whose vectors are int8
 * (format 8 and older) keeps that code for the vectors it adds, and searches them.
 */
class VectorCodeIndexTest {

  @TempDir Path root;

  private static final String[] WORDS =
      {"duration", "checksum", "invoice", "thumbnail", "firmware", "playlist"};

  private void writeFiles() throws Exception {
    for (String w : WORDS) {
      write(root, "src/" + w + ".py", pyFunction(w + "_handler", w));
    }
  }

  private static void assertFindsEachChunk(HybridIndex index) throws Exception {
    for (String w : WORDS) {
      List<Hit> hits = index.search(w + " handler " + w, SearchOpts.semantic(3));
      assertThat(hits).as(w).isNotEmpty();
      assertThat(hits.get(0).path()).as(w).isEqualTo("src/" + w + ".py");
    }
  }

  /** Per vector field of the index: its live vectors' largest absolute code (each vector's). */
  private Map<String, List<Integer>> vectorFields(int dim) throws Exception {
    Map<String, List<Integer>> out = new TreeMap<>();
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        for (FieldInfo f : leaf.reader().getFieldInfos()) {
          if (f.getVectorDimension() == 0) {
            continue;
          }
          assertThat(f.getVectorEncoding()).isEqualTo(VectorEncoding.BYTE);
          assertThat(f.getVectorSimilarityFunction()).isEqualTo(VectorSimilarityFunction.COSINE);
          assertThat(f.getVectorDimension()).isEqualTo(dim);
          List<Integer> maxima = out.computeIfAbsent(f.name, n -> new java.util.ArrayList<>());
          ByteVectorValues values = leaf.reader().getByteVectorValues(f.name);
          var live = leaf.reader().getLiveDocs();
          for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS;
              d = values.nextDoc()) {
            if (live != null && !live.get(d)) {
              continue;
            }
            int max = 0;
            for (byte b : values.vectorValue()) {
              max = Math.max(max, Math.abs(b));
            }
            maxima.add(max);
          }
        }
      }
    }
    return out;
  }

  @Test
  void aNewIndexStoresPackedCodesOnlyAndSemanticSearchFindsTheChunk() throws Exception {
    writeFiles();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.FULL);
      assertFindsEachChunk(index);
    }
    int dim = TestEmbedders.fake().dimension();
    Map<String, List<Integer>> fields = vectorFields(dim);
    assertThat(fields).containsOnlyKeys(VectorCode.PACKED.field(dim));
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      // A vector's key is kept once, as doc values: no term (format 9).
      assertThat(MultiTerms.getTerms(reader, Schema.VEC_HASH)).isNull();
      assertThat(MultiTerms.getTerms(reader, Schema.CHUNK_HASH)).isNotNull();
    }
    assertThat(VectorCode.PACKED.field(dim)).startsWith("vector_p");
    assertThat(fields.get(VectorCode.PACKED.field(dim))).hasSizeGreaterThanOrEqualTo(WORDS.length)
        .containsOnly(VectorCode.PACKED.encode(new float[] {1f})[0] & 0xFF);
  }

  @Test
  void damagedPackedVectorsAreFoundByVerifyAndAFullRunRebuildsThem() throws Exception {
    writeFiles();
    SegmentDamage.generate(root, 4); // enough vectors for a part of some KiB
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.FULL);
    }
    SegmentDamage.garble(root.resolve(".prism-index"), ".pvd");
    try (HybridIndex index = TestRepos.open(root)) {
      assertThatThrownBy(() -> index.verify(false)).isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("checksum");
      assertThat(index.status().state()).isEqualTo(IndexState.FAILED);
      index.refresh(RefreshOptions.FULL);
      index.verify(true);
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(index.search("invoice handler invoice", SearchOpts.semantic(3))).isNotEmpty();
    }
  }

  @Test
  void anIndexWithInt8VectorsKeepsThemForTheVectorsItAdds() throws Exception {
    Embedder fake = TestEmbedders.fake();
    int dim = fake.dimension();
    // A format-8 index holding one int8 vector (an unused cache entry) and no files yet.
    Files.createDirectories(root.resolve(".prism-index/lucene"));
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      float[] unit = new float[dim];
      unit[0] = 1f;
      BytesRef key = new BytesRef(new byte[Schema.CHUNK_KEY_BYTES]);
      Document d = new Document();
      d.add(new StringField(Schema.TYPE, Schema.TYPE_VECTOR, Field.Store.NO));
      d.add(new StringField(Schema.VEC_HASH, key, Field.Store.NO));
      d.add(new BinaryDocValuesField(Schema.VEC_HASH, key));
      d.add(new KnnByteVectorField(VectorCode.INT8.field(dim), Int8Vectors.encode(unit),
          VectorSimilarityFunction.COSINE));
      d.add(new NumericDocValuesField(Schema.VEC_CREATED, 1L));
      w.addDocument(d);
      w.setLiveCommitData(Map.of(Schema.META_FORMAT, "8", Schema.META_ANALYZER,
          CodeAnalyzer.VERSION, Schema.META_CHUNK_KEYS, "true", Schema.META_CHUNK_KEY_BYTES,
          Integer.toString(Schema.CHUNK_KEY_BYTES), Schema.META_EMBEDDER_ID, fake.id(),
          Schema.META_EMBEDDER_DIM, Integer.toString(dim), Schema.META_VECTORS, "1").entrySet(),
          true);
      w.commit();
    }
    writeFiles();
    try (HybridIndex index = TestRepos.open(root, fake)) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.chunksEmbedded()).isEqualTo(WORDS.length);
      assertFindsEachChunk(index);
      write(root, "src/extra.py", pyFunction("extra_handler", "extra"));
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).chunksEmbedded()).isEqualTo(1);
      assertThat(index.engineStatus().formatVersion()).isEqualTo(Schema.FORMAT_VERSION);
      assertFindsEachChunk(index);
    }
    Map<String, List<Integer>> fields = vectorFields(dim);
    assertThat(fields).containsOnlyKeys(VectorCode.INT8.field(dim));
    assertThat(fields.get(VectorCode.INT8.field(dim))).hasSize(WORDS.length + 2).containsOnly(127);
  }
}
