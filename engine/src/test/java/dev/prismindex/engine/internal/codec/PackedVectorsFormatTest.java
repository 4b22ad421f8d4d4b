package dev.prismindex.engine.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnByteVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnByteVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packed vector format: codes survive packing exactly at any dimension; through Lucene (flush,
 * several segments, sparse fields, merges, deletions) every document reads back its own codes,
 * k-NN finds a document from its own vector, the files take {@code packedLength} bytes a vector,
 * and a code out of range is refused without harming the index.
 */
class PackedVectorsFormatTest {

  @TempDir Path dir;

  private static final int MAX = PackedVectorsFormat.MAX_CODE;

  @Test
  void everyCodeSurvivesPackingAtAnyDimension() {
    Random random = new Random(7);
    for (int dim : new int[] {1, 3, 4, 5, 7, 8, 9, 383, 384}) {
      byte[] v = new byte[dim];
      for (int i = 0; i < dim; i++) {
        v[i] = (byte) (random.nextInt(2 * MAX + 1) - MAX);
      }
      v[0] = (byte) -MAX;
      v[dim - 1] = (byte) MAX;
      byte[] packed = new byte[PackedVectorsFormat.packedLength(dim)];
      PackedVectorsFormat.pack(v, packed);
      byte[] back = new byte[dim];
      PackedVectorsFormat.unpack(packed, back);
      assertThat(back).as("dim %d", dim).containsExactly(v);
    }
    assertThat(PackedVectorsFormat.packedLength(384)).isEqualTo(384 * PackedVectorsFormat.BITS / 8);
  }

  @Test
  void theCosineFromPackedBytesIsLucenesByteCosineOfTheCodesBitForBit() {
    Random random = new Random(3);
    for (int dim : new int[] {1, 5, 8, 13, 384}) {
      for (int round = 0; round < 50; round++) {
        byte[] target = new byte[dim];
        byte[] codes = new byte[dim];
        int norm = 0;
        for (int i = 0; i < dim; i++) {
          target[i] = (byte) (random.nextInt(255) - 127);
          codes[i] = (byte) (random.nextInt(2 * MAX + 1) - MAX);
          norm += target[i] * target[i];
        }
        codes[0] = (byte) MAX; // never a zero vector
        target[0] = target[0] == 0 ? 1 : target[0];
        norm = 0;
        for (byte t : target) {
          norm += t * t;
        }
        byte[] packed = new byte[PackedVectorsFormat.packedLength(dim)];
        PackedVectorsFormat.pack(codes, packed);
        int sum = 0;
        for (byte t : target) {
          sum += t;
        }
        int codesNorm = PackedVectorsFormat.norm(packed, dim);
        int expectedNorm = 0;
        for (byte c : codes) {
          expectedNorm += c * c;
        }
        assertThat(codesNorm).isEqualTo(expectedNorm);
        assertThat(PackedVectorsFormat.cosine(target, sum, norm, packed, codesNorm))
            .as("dim %d", dim).isEqualTo(org.apache.lucene.util.VectorUtil.cosine(target, codes));
      }
    }
  }

  @Test
  void theSignsHoldOneBitPerPositiveComponentAtAnyDimension() {
    Random random = new Random(13);
    for (int dim : new int[] {1, 63, 64, 65, 256, 384}) {
      byte[] v = new byte[dim];
      for (int i = 0; i < dim; i++) {
        v[i] = (byte) (random.nextInt(2 * MAX + 1) - MAX);
      }
      int words = PackedVectorsFormat.signWords(dim);
      assertThat(words).isEqualTo((dim + 63) / 64);
      long[] signs = new long[words + 2];
      signs[0] = -1;
      signs[words + 1] = -1;
      PackedVectorsFormat.signs(v, signs, 1);
      for (int i = 0; i < 64 * words; i++) {
        boolean bit = (signs[1 + i / 64] >>> (i % 64) & 1) == 1;
        assertThat(bit).as("dim %d, component %d", dim, i).isEqualTo(i < dim && v[i] > 0);
      }
      assertThat(signs[0]).isEqualTo(-1); // nothing written outside its words
      assertThat(signs[words + 1]).isEqualTo(-1);
    }
  }

  @Test
  void aCodeOutOfRangeIsRefusedNamingTheFieldAndComponent() {
    byte[] v = {0, (byte) (MAX + 1), 0};
    assertThatThrownBy(() -> PackedVectorsFormat.checkCodes("f", v))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"f\"").hasMessageContaining("component 1");
    PackedVectorsFormat.checkCodes("f", new byte[] {(byte) -MAX, 0, (byte) MAX});
  }

  private static byte[] randomCodes(Random random, int dim) {
    float[] f = new float[dim];
    for (int i = 0; i < dim; i++) {
      f[i] = (float) random.nextGaussian();
    }
    return VectorCode.PACKED.encode(f);
  }

  private static IndexWriter writer(FSDirectory d) throws Exception {
    return new IndexWriter(d, new IndexWriterConfig().setCodec(WriterSettings.CODEC)
        .setMergePolicy(NoMergePolicy.INSTANCE));
  }

  @Test
  void documentsReadBackTheirCodesAcrossSegmentsMergesAndDeletions() throws Exception {
    int dim = 24;
    String field = VectorCode.PACKED.field(dim);
    Random random = new Random(11);
    Map<String, byte[]> written = new HashMap<>();
    try (FSDirectory d = FSDirectory.open(dir)) {
      try (IndexWriter w = writer(d)) {
        for (int segment = 0; segment < 3; segment++) {
          for (int i = 0; i < 200; i++) {
            String id = segment + "-" + i;
            Document doc = new Document();
            doc.add(new StringField("id", id, Field.Store.YES));
            if (i % 3 != 0) { // sparse: a third of the documents have no vector
              byte[] v = randomCodes(random, dim);
              written.put(id, v);
              doc.add(new KnnByteVectorField(field, v, VectorSimilarityFunction.COSINE));
            }
            w.addDocument(doc);
          }
          w.commit();
        }
        w.deleteDocuments(new Term("id", "1-1"));
        written.remove("1-1");
      }
      assertThat(readBack(d, field)).containsExactlyInAnyOrderEntriesOf(written);
      try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setCodec(WriterSettings.CODEC))) {
        w.forceMerge(1);
      }
      assertThat(readBack(d, field)).containsExactlyInAnyOrderEntriesOf(written);
      try (CheckIndex check = new CheckIndex(d)) {
        assertThat(check.checkIndex().clean).isTrue();
      }
      long bytes = 0;
      for (String name : d.listAll()) {
        if (name.endsWith("." + PackedVectorsWriter.DATA_EXTENSION)) {
          bytes += d.fileLength(name);
        }
      }
      // the vectors packed and their signs, plus headers, footers and the sparse document set
      long perVector = PackedVectorsFormat.packedLength(dim)
          + (long) PackedVectorsFormat.signWords(dim) * Long.BYTES;
      assertThat(bytes).isBetween(written.size() * perVector, written.size() * perVector + 1024);
      try (DirectoryReader r = DirectoryReader.open(d)) {
        IndexSearcher searcher = new IndexSearcher(r);
        StoredFields stored = r.storedFields();
        for (String id : List.of("0-1", "1-2", "2-199")) {
          ScoreDoc[] top = searcher.search(
              new KnnByteVectorQuery(field, written.get(id), 1), 1).scoreDocs;
          assertThat(stored.document(top[0].doc).get("id")).isEqualTo(id);
          assertThat(top[0].score).isEqualTo(1f, org.assertj.core.data.Offset.offset(1e-5f));
        }
      }
    }
  }

  /**
   * Writes three segments of 300 vectors (a third deleted in the second) with {@code codec}, not
   * compound (their files can be listed).
   */
  private static Map<String, byte[]> threeSegments(FSDirectory d, String field,
      org.apache.lucene.codecs.Codec codec) throws Exception {
    Random random = new Random(5);
    Map<String, byte[]> written = new HashMap<>();
    try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setCodec(codec)
        .setUseCompoundFile(false).setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int segment = 0; segment < 3; segment++) {
        for (int i = 0; i < 300; i++) {
          String id = segment + "-" + i;
          byte[] v = randomCodes(random, 32);
          written.put(id, v);
          Document doc = new Document();
          doc.add(new StringField("id", id, Field.Store.YES));
          doc.add(new StringField("even", String.valueOf(i % 2 == 0), Field.Store.NO));
          doc.add(new KnnByteVectorField(field, v, VectorSimilarityFunction.COSINE));
          w.addDocument(doc);
        }
        w.commit();
      }
      for (int i = 0; i < 300; i += 3) {
        w.deleteDocuments(new Term("id", "1-" + i));
        written.remove("1-" + i);
      }
    }
    return written;
  }

  /** The ids of the {@code k} vectors of {@code written} nearest {@code query} by byte cosine. */
  private static List<String> nearest(Map<String, byte[]> written, byte[] query, int k,
      java.util.function.Predicate<String> accept) {
    return written.entrySet().stream().filter(e -> accept.test(e.getKey()))
        .sorted(java.util.Comparator.comparingDouble(
            (Map.Entry<String, byte[]> e) -> -org.apache.lucene.util.VectorUtil.cosine(query,
                e.getValue())).thenComparing(Map.Entry::getKey))
        .limit(k).map(Map.Entry::getKey).toList();
  }

  private static List<String> knn(IndexSearcher searcher, String field, byte[] query, int k,
      org.apache.lucene.search.Query filter) throws Exception {
    StoredFields stored = searcher.getIndexReader().storedFields();
    List<String> out = new java.util.ArrayList<>();
    for (ScoreDoc sd : searcher.search(new KnnByteVectorQuery(field, query, k, filter), k)
        .scoreDocs) {
      out.add(stored.document(sd.doc).get("id"));
    }
    return out;
  }

  /**
   * A search for at least as many vectors as a segment has rescores all of them: exact, before and
   * after a merge, with and without a filter.
   */
  @Test
  void aSearchForAsManyVectorsAsASegmentHasIsExactBeforeAndAfterAMerge() throws Exception {
    String field = VectorCode.PACKED.field(32);
    try (FSDirectory d = FSDirectory.open(dir)) {
      Map<String, byte[]> written = threeSegments(d, field, WriterSettings.CODEC);
      assertThat(d.listAll()).noneMatch(name -> name.endsWith(".vem") || name.endsWith(".vex"));
      for (int pass = 0; pass < 2; pass++) {
        int k = pass == 0 ? 300 : written.size();
        try (DirectoryReader r = DirectoryReader.open(d)) {
          assertThat(r.leaves()).hasSize(pass == 0 ? 3 : 1);
          IndexSearcher searcher = new IndexSearcher(r);
          Random random = new Random(9);
          for (int round = 0; round < 20; round++) {
            byte[] query = randomCodes(random, 32);
            assertThat(knn(searcher, field, query, k, null).subList(0, 25))
                .isEqualTo(nearest(written, query, 25, id -> true));
            assertThat(knn(searcher, field, query, k, new org.apache.lucene.search.TermQuery(
                new Term("even", "true"))).subList(0, 25))
                .isEqualTo(nearest(written, query, 25,
                    id -> Integer.parseInt(id.substring(2)) % 2 == 0));
          }
        }
        try (IndexWriter w = new IndexWriter(d,
            new IndexWriterConfig().setCodec(WriterSettings.CODEC))) {
          w.forceMerge(1);
        }
        assertThat(readBack(d, field)).containsExactlyInAnyOrderEntriesOf(written);
      }
    }
  }

  /**
   * The sign scan against exact search on a generated set like the model's vectors (seed 38):
   * 20,000 vectors of 256 dimensions around 400 random directions, in one merged segment and in
   * several; queries are vectors moved at random. Of the exact 50 nearest, the 210 that a limit-10
   * search fetches hold at least 98 %, and a vector finds itself first.
   */
  @Test
  void theSignScanFindsTheExactNearestOfAGeneratedSet() throws Exception {
    int dim = 256;
    String field = VectorCode.PACKED.field(dim);
    Random random = new Random(38);
    float[][] centres = new float[400][dim];
    for (float[] c : centres) {
      for (int i = 0; i < dim; i++) {
        c[i] = (float) random.nextGaussian();
      }
    }
    byte[][] vectors = new byte[20_000][];
    try (FSDirectory d = FSDirectory.open(dir)) {
      try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig()
          .setCodec(WriterSettings.CODEC).setRAMBufferSizeMB(4))) {
        for (int n = 0; n < vectors.length; n++) {
          float[] c = centres[random.nextInt(centres.length)];
          float[] f = new float[dim];
          for (int i = 0; i < dim; i++) {
            f[i] = c[i] + 0.9f * (float) random.nextGaussian();
          }
          byte[] v = VectorCode.PACKED.encode(f);
          vectors[n] = v;
          Document doc = new Document();
          doc.add(new StringField("id", Integer.toString(n), Field.Store.YES));
          doc.add(new KnnByteVectorField(field, v, VectorSimilarityFunction.COSINE));
          w.addDocument(doc);
        }
      }
      for (int pass = 0; pass < 2; pass++) {
        try (DirectoryReader r = DirectoryReader.open(d)) {
          if (pass == 0) {
            assertThat(r.leaves().size()).as("segments").isGreaterThan(1);
          } else {
            assertThat(r.leaves()).hasSize(1);
          }
          IndexSearcher searcher = new IndexSearcher(r);
          Random queries = new Random(39);
          double recall = 0;
          int rounds = 30;
          for (int q = 0; q < rounds; q++) {
            int own = queries.nextInt(vectors.length);
            String id = Integer.toString(own);
            byte[] query = vectors[own].clone();
            assertThat(knn(searcher, field, query, 1, null)).containsExactly(id);
            for (int i = 0; i < dim; i++) {
              query[i] = (byte) Math.max(-MAX, Math.min(MAX, query[i] + queries.nextInt(21) - 10));
            }
            java.util.Set<String> found = new java.util.HashSet<>(knn(searcher, field, query, 210,
                null));
            float[] scores = new float[vectors.length];
            Integer[] order = new Integer[vectors.length];
            for (int j = 0; j < vectors.length; j++) {
              scores[j] = org.apache.lucene.util.VectorUtil.cosine(query, vectors[j]);
              order[j] = j;
            }
            java.util.Arrays.sort(order, (x, y) -> Float.compare(scores[y], scores[x]));
            long hits = java.util.Arrays.stream(order, 0, 50)
                .filter(j -> found.contains(Integer.toString(j))).count();
            recall += hits / 50.0 / rounds;
          }
          assertThat(recall).as("recall of the exact 50, pass %d", pass).isGreaterThan(0.98);
        }
        try (IndexWriter w = new IndexWriter(d,
            new IndexWriterConfig().setCodec(WriterSettings.CODEC))) {
          w.forceMerge(1);
        }
      }
    }
  }

  private static Map<String, byte[]> readBack(FSDirectory d, String field) throws Exception {
    Map<String, byte[]> out = new HashMap<>();
    try (DirectoryReader r = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : r.leaves()) {
        ByteVectorValues values = leaf.reader().getByteVectorValues(field);
        StoredFields stored = leaf.reader().storedFields();
        var live = leaf.reader().getLiveDocs();
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = values.nextDoc()) {
          if (live == null || live.get(doc)) {
            out.put(stored.document(doc).get("id"), values.vectorValue().clone());
          }
        }
      }
    }
    return out;
  }

  @Test
  void aDocumentWithACodeOutOfRangeIsRefusedAndTheIndexKeepsTheOthers() throws Exception {
    int dim = 8;
    String field = VectorCode.PACKED.field(dim);
    try (FSDirectory d = FSDirectory.open(dir)) {
      try (IndexWriter w = writer(d)) {
        Document good = new Document();
        good.add(new StringField("id", "good", Field.Store.YES));
        good.add(new KnnByteVectorField(field, new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
            VectorSimilarityFunction.COSINE));
        w.addDocument(good);
        Document bad = new Document();
        bad.add(new StringField("id", "bad", Field.Store.YES));
        bad.add(new KnnByteVectorField(field, new byte[] {1, 2, 3, 4, 5, 6, 7, 127},
            VectorSimilarityFunction.COSINE));
        assertThatThrownBy(() -> w.addDocument(bad))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of the");
        w.commit();
      }
      assertThat(readBack(d, field)).containsOnlyKeys("good");
      try (CheckIndex check = new CheckIndex(d)) {
        assertThat(check.checkIndex().clean).isTrue();
      }
    }
  }

  @Test
  void int8FieldsKeepLuceneFormatAndPackedFieldsGetThisOne() {
    var codec = (org.apache.lucene.codecs.lucene912.Lucene912Codec) WriterSettings.CODEC;
    assertThat(codec.getKnnVectorsFormatForField(VectorCode.PACKED.field(384)).getName())
        .isEqualTo(PackedVectorsFormat.NAME);
    assertThat(codec.getKnnVectorsFormatForField(VectorCode.INT8.field(384)).getName())
        .isEqualTo("Lucene99HnswVectorsFormat");
    assertThat(org.apache.lucene.codecs.KnnVectorsFormat.forName(PackedVectorsFormat.NAME))
        .isInstanceOf(PackedVectorsFormat.class);
  }

  @Test
  void theCodeOfAnIndexFollowsItsVectorFields() throws Exception {
    int dim = 8;
    try (FSDirectory d = FSDirectory.open(dir)) {
      try (IndexWriter w = writer(d)) {
        w.addDocument(new Document());
        w.commit();
        try (DirectoryReader r = DirectoryReader.open(d)) {
          assertThat(VectorCode.of(r, dim)).isEqualTo(VectorCode.PACKED);
        }
        Document int8 = new Document();
        int8.add(new KnnByteVectorField(VectorCode.INT8.field(dim), Int8Vectors.encode(
            new float[] {1, 2, 3, 4, 5, 6, 7, 8}), VectorSimilarityFunction.COSINE));
        w.addDocument(int8);
        w.commit();
        try (DirectoryReader r = DirectoryReader.open(d)) {
          assertThat(VectorCode.of(r, dim)).isEqualTo(VectorCode.INT8);
          assertThat(VectorCode.of(r, dim + 1)).isEqualTo(VectorCode.PACKED);
        }
      }
    }
  }

  @Test
  void codesAreTheInt8EncodingAtTheSmallerScale() {
    float[] v = {0.5f, -0.25f, 0.1f, 0f};
    assertThat(VectorCode.PACKED.encode(v))
        .containsExactly(Int8Vectors.encode(v, PackedVectorsFormat.MAX_CODE));
    assertThat(VectorCode.PACKED.encode(v)[0]).isEqualTo((byte) MAX);
    assertThat(VectorCode.INT8.encode(v)).containsExactly(Int8Vectors.encode(v));
  }
}
