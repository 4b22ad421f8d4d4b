package dev.prismindex.benchmarks;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.MMapDirectory;

/**
 * A JMH-free harness for the vector-format and pipeline figures of the engine-vectors run log
 * ({@code docs/runs/README.md}). Not a JMH benchmark. Needs the model module on the class path (the benchmarks jar
 * has it). Usage, after {@code mvn -pl benchmarks -am package -DskipTests}:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.VectorTiming embed CORPUS VECTORS.bin [LIMIT]
 *     # chunks every indexable file of CORPUS like the engine does, embeds the distinct chunk
 *     # texts with the default model (1 thread, then 2), prints chunks/s, writes the vectors
 * java ... VectorTiming formats VECTORS.bin WORKDIR
 *     # float32 HNSW vs int8 (7-bit) and int4 scalar-quantized HNSW on the same vectors: size on
 *     # disk, k-NN latency, recall@10 against exact brute force
 * </pre>
 */
public final class VectorTiming {
  private VectorTiming() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "embed" -> embed(Path.of(args[1]), Path.of(args[2]),
          args.length > 3 ? Integer.parseInt(args[3]) : Integer.MAX_VALUE);
      case "formats" -> formats(Path.of(args[1]), Path.of(args[2]));
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  /**
   * The distinct chunk texts of a corpus, in walk order: the texts a refresh would embed
   * ({@link HybridIndex#chunkTexts}).
   */
  static List<String> chunkTexts(Path root, int limit) throws IOException {
    return HybridIndex.chunkTexts(HybridIndexOptions.builder(root).build(), limit);
  }

  static void embed(Path corpus, Path out, int limit) throws Exception {
    // The bundled model: the one provider in the benchmarks jar (whatever its token cap).
    Embedder embedder = EmbedderProvider.findDefault().orElseThrow().create();
    List<String> texts = chunkTexts(corpus, limit);
    long chars = texts.stream().mapToLong(String::length).sum();
    System.out.printf("%d distinct chunks, %.1f chars on average; model %s%n", texts.size(),
        chars / (double) texts.size(), embedder.id());
    long t = System.nanoTime();
    embedder.embed(List.of("warm up the model"));
    System.out.printf("model load + first call: %d ms%n", (System.nanoTime() - t) / 1_000_000);
    int sample = Math.min(texts.size(), 600);
    for (int threads : new int[] {1, 2, 1, 2}) {
      double rate = rate(embedder, texts.subList(0, sample), threads);
      System.out.printf("raw model, %d thread(s), batches of 32: %.1f chunks/s%n", threads, rate);
    }
    List<float[]> vectors = new ArrayList<>(texts.size());
    t = System.nanoTime();
    for (int i = 0; i < texts.size(); i += 64) {
      vectors.addAll(embedder.embed(texts.subList(i, Math.min(texts.size(), i + 64))));
    }
    System.out.printf("embedded all %d chunks in %d ms%n", texts.size(),
        (System.nanoTime() - t) / 1_000_000);
    // Queries: the first non-blank line of 400 chunks picked at random (seed 7).
    Random r = new Random(7);
    List<String> queries = new ArrayList<>();
    while (queries.size() < 400) {
      String first = texts.get(r.nextInt(texts.size())).strip().lines().findFirst().orElse("");
      if (first.length() > 3) {
        queries.add(first.length() > 120 ? first.substring(0, 120) : first);
      }
    }
    List<float[]> queryVectors = embedder.embed(queries);
    try (DataOutputStream o = new DataOutputStream(Files.newOutputStream(out))) {
      o.writeInt(embedder.dimension());
      o.writeInt(vectors.size());
      o.writeInt(queryVectors.size());
      for (float[] v : vectors) {
        for (float f : v) {
          o.writeFloat(f);
        }
      }
      for (float[] v : queryVectors) {
        for (float f : v) {
          o.writeFloat(f);
        }
      }
    }
  }

  private static double rate(Embedder embedder, List<String> texts, int threads)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long t = System.nanoTime();
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < texts.size(); i += 32) {
        List<String> batch = texts.subList(i, Math.min(texts.size(), i + 32));
        futures.add(pool.submit(() -> embedder.embed(batch)));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      return texts.size() / ((System.nanoTime() - t) / 1e9);
    } finally {
      pool.shutdown();
    }
  }

  static void formats(Path vectorsFile, Path work) throws Exception {
    float[][] docs;
    float[][] queries;
    try (DataInputStream in = new DataInputStream(Files.newInputStream(vectorsFile))) {
      int dim = in.readInt();
      docs = new float[in.readInt()][dim];
      queries = new float[in.readInt()][dim];
      for (float[] v : docs) {
        for (int i = 0; i < dim; i++) {
          v[i] = in.readFloat();
        }
      }
      for (float[] v : queries) {
        for (int i = 0; i < dim; i++) {
          v[i] = in.readFloat();
        }
      }
    }
    System.out.printf("%d vectors, %d queries, dimension %d%n", docs.length, queries.length,
        docs[0].length);
    int[][] exact = new int[queries.length][];
    for (int q = 0; q < queries.length; q++) {
      exact[q] = bruteForce(docs, queries[q], 10);
    }
    List<Object[]> variants = List.of(
        new Object[] {"float32 (Lucene99HnswVectorsFormat)", new Lucene99HnswVectorsFormat(16, 100)},
        new Object[] {"fl50 float32, beam width 50", new Lucene99HnswVectorsFormat(16, 50)},
        new Object[] {"fl12 float32, M 12, beam width 50", new Lucene99HnswVectorsFormat(12, 50)},
        new Object[] {"int8 (Lucene99HnswScalarQuantizedVectorsFormat, 7 bits)",
            new Lucene99HnswScalarQuantizedVectorsFormat(16, 100)},
        new Object[] {"int4 (Lucene99HnswScalarQuantizedVectorsFormat, 4 bits, compressed)",
            new Lucene99HnswScalarQuantizedVectorsFormat(16, 100, 1, 4, true, null, null)});
    for (Object[] v : variants) {
      measure((String) v[0], (KnnVectorsFormat) v[1], docs, queries, exact,
          work.resolve(((String) v[0]).substring(0, 4)));
    }
  }

  private static void measure(String name, KnnVectorsFormat format, float[][] docs,
      float[][] queries, int[][] exact, Path dir) throws Exception {
    Trees.delete(dir);
    Files.createDirectories(dir);
    long t = System.nanoTime();
    try (MMapDirectory d = new MMapDirectory(dir)) {
      IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(64)
          .setUseCompoundFile(false)
          .setCodec(new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
              return format;
            }
          });
      try (IndexWriter w = new IndexWriter(d, config)) {
        for (int i = 0; i < docs.length; i++) {
          Document doc = new Document();
          doc.add(new KnnFloatVectorField("v", docs[i], VectorSimilarityFunction.DOT_PRODUCT));
          doc.add(new StoredField("id", i));
          w.addDocument(doc);
        }
        w.commit();
        long built = System.nanoTime() - t;
        ((org.apache.lucene.index.TieredMergePolicy) config.getMergePolicy()).setNoCFSRatio(0);
        w.forceMerge(1);
        w.commit();
        long merged = System.nanoTime() - t - built;
        long vectorBytes = 0;
        long searched = 0;
        long total = 0;
        for (String f : d.listAll()) {
          long len = d.fileLength(f);
          total += len;
          if (f.endsWith(".vec") || f.endsWith(".vex") || f.endsWith(".vem")
              || f.endsWith(".veq") || f.endsWith(".vemq") || f.endsWith(".vemf")) {
            vectorBytes += len;
          }
          // What a graph search reads: the graph, plus the quantized vectors when there are any,
          // else the raw ones.
          if (f.endsWith(".vex") || f.endsWith(".veq")) {
            searched += len;
          }
        }
        if (!name.startsWith("int")) {
          for (String f : d.listAll()) {
            if (f.endsWith(".vec")) {
              searched += d.fileLength(f);
            }
          }
        }
        try (DirectoryReader reader = DirectoryReader.open(d)) {
          IndexSearcher s = new IndexSearcher(reader);
          int[] ids = new int[reader.maxDoc()];
          for (int doc = 0; doc < reader.maxDoc(); doc++) {
            ids[doc] = s.storedFields().document(doc).getField("id").numericValue().intValue();
          }
          for (int k : new int[] {10, 30, 70}) {
            // warm-up
            for (int rep = 0; rep < 2; rep++) {
              for (float[] q : queries) {
                s.search(new KnnFloatVectorQuery("v", q, k), k);
              }
            }
            long[] nanos = new long[queries.length];
            double recall = 0;
            for (int qi = 0; qi < queries.length; qi++) {
              long q0 = System.nanoTime();
              TopDocs top = s.search(new KnnFloatVectorQuery("v", queries[qi], k), k);
              nanos[qi] = System.nanoTime() - q0;
              Set<Integer> want = new java.util.HashSet<>();
              for (int id : exact[qi]) {
                want.add(id);
              }
              // As the engine does: re-score the k candidates with the raw vectors, keep 10.
              float[] q = queries[qi];
              List<Integer> cands = new ArrayList<>();
              for (ScoreDoc sd : top.scoreDocs) {
                cands.add(ids[sd.doc]);
              }
              cands.sort((a, b) -> Double.compare(dot(docs[b], q), dot(docs[a], q)));
              int hit = 0;
              for (int j = 0; j < Math.min(10, cands.size()); j++) {
                if (want.contains(cands.get(j))) {
                  hit++;
                }
              }
              recall += hit / 10.0;
            }
            Arrays.sort(nanos);
            System.out.printf("%s k=%d: recall@10 (re-scored) %.3f, p50 %.2f ms, p95 %.2f ms%n",
                name, k,
                recall / queries.length, nanos[nanos.length / 2] / 1e6,
                nanos[nanos.length * 95 / 100] / 1e6);
          }
        }
        System.out.printf("%s: build %d ms, forceMerge %d ms, vector files %.1f MB "
            + "(%.0f B/vector; searched by the graph: %.1f MB), index %.1f MB%n", name,
            built / 1_000_000, merged / 1_000_000, vectorBytes / 1e6,
            vectorBytes / (double) docs.length, searched / 1e6, total / 1e6);
      }
    }
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  static int[] bruteForce(float[][] docs, float[] q, int k) {
    Integer[] order = new Integer[docs.length];
    double[] score = new double[docs.length];
    for (int i = 0; i < docs.length; i++) {
      double dot = 0;
      for (int j = 0; j < q.length; j++) {
        dot += docs[i][j] * q[j];
      }
      score[i] = dot;
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(score[b], score[a]));
    int[] out = new int[k];
    for (int i = 0; i < k; i++) {
      out[i] = order[i];
    }
    return out;
  }
}
