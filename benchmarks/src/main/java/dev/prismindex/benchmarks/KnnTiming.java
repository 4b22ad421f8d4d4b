package dev.prismindex.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnByteVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.VectorUtil;

/**
 * The k-NN search of an index's vectors on its own, as the engine asks it (the {@code 4 x 50 +
 * 10} nearest of a limit-10 search): its thread CPU time per query (median of the last half of
 * the rounds) and its recall, the share of the exact 50 nearest (every vector scored) that it
 * returns. The queries are indexed vectors with every component moved by up to 10 at random
 * (seed 38), so a query is near documents without being one. Not a JMH benchmark. Usage, after
 * {@code mvn -pl benchmarks -am package -DskipTests}:
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.KnnTiming INDEX/lucene [queries]}</pre>
 */
public final class KnnTiming {

  private static final String FIELD = "vector_p7_256";
  private static final int FETCH = 210;
  private static final int DEPTH = 50;

  private KnnTiming() {}

  public static void main(String[] args) throws Exception {
    int queries = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (Directory d = FSDirectory.open(Path.of(args[0]));
        DirectoryReader r = DirectoryReader.open(d)) {
      IndexSearcher searcher = new IndexSearcher(r);
      List<byte[]> vectors = new ArrayList<>();
      List<Integer> docs = new ArrayList<>();
      for (LeafReaderContext leaf : r.leaves()) {
        ByteVectorValues values = leaf.reader().getByteVectorValues(FIELD);
        if (values == null) {
          continue;
        }
        Bits live = leaf.reader().getLiveDocs();
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = values.nextDoc()) {
          if (live == null || live.get(doc)) {
            vectors.add(values.vectorValue().clone());
            docs.add(leaf.docBase + doc);
          }
        }
      }
      Random random = new Random(38);
      long[] cpu = new long[queries];
      double recall = 0;
      for (int q = 0; q < queries; q++) {
        byte[] query = vectors.get(random.nextInt(vectors.size())).clone();
        for (int i = 0; i < query.length; i++) {
          query[i] = (byte) Math.max(-63, Math.min(63, query[i] + random.nextInt(21) - 10));
        }
        long start = threads.getCurrentThreadCpuTime();
        ScoreDoc[] top = searcher.search(new KnnByteVectorQuery(FIELD, query, FETCH), FETCH)
            .scoreDocs;
        cpu[q] = threads.getCurrentThreadCpuTime() - start;
        Set<Integer> found = new HashSet<>();
        for (ScoreDoc sd : top) {
          found.add(sd.doc);
        }
        float[] scores = new float[vectors.size()];
        Integer[] order = new Integer[vectors.size()];
        for (int i = 0; i < scores.length; i++) {
          scores[i] = VectorUtil.cosine(query, vectors.get(i));
          order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(scores[b], scores[a]));
        int hits = 0;
        for (int i = 0; i < DEPTH; i++) {
          hits += found.contains(docs.get(order[i])) ? 1 : 0;
        }
        recall += hits / (double) DEPTH;
      }
      long[] late = Arrays.copyOfRange(cpu, queries / 2, queries);
      Arrays.sort(late);
      System.out.printf("%s: %d vectors, %d queries, k-NN CPU median %.2f ms, recall of the exact"
          + " %d in the %d fetched %.4f%n", args[0], vectors.size(), queries,
          late[late.length / 2] / 1e6, DEPTH, FETCH, recall / queries);
    }
  }
}
