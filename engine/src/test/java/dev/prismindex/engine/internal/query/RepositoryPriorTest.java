package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.spi.StoreFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RepositoryPrior}: a repository whose chunks use the query's words more often weighs more;
 * shares, not counts, so size alone changes nothing.
 */
class RepositoryPriorTest {

  private final List<IndexReader> open = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (IndexReader r : open) {
      r.close();
    }
  }

  /** An index of {@code total} chunk bodies, the first {@code with} of them holding {@code word}. */
  private IndexReader repo(int total, int with, String word) throws IOException {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new WhitespaceAnalyzer()))) {
      for (int i = 0; i < total; i++) {
        Document d = new Document();
        d.add(new TextField(StoreFields.BODY, (i < with ? word + " " : "") + "value count"
            + (i % 3), Field.Store.NO));
        w.addDocument(d);
      }
    }
    IndexReader r = DirectoryReader.open(dir);
    open.add(r);
    return r;
  }

  @Test
  void theRepositoryWhoseChunksUseTheQuerysWordsMoreOftenWeighsMore() throws IOException {
    double[] w = RepositoryPrior.weights(List.of(repo(10, 8, "socket"), repo(10, 1, "socket")),
        Set.of("socket"));
    assertThat(w[0]).isEqualTo(1.0);
    assertThat(w[1]).isLessThan(0.9).isGreaterThan(0.0);
  }

  /** 2 of 10 chunks and 20 of 100: the same share, the same weight, whatever the sizes. */
  @Test
  void aRepositorysSizeAloneChangesNothing() throws IOException {
    double[] w = RepositoryPrior.weights(List.of(repo(10, 2, "frob"), repo(100, 20, "frob")),
        Set.of("frob", "value"));
    assertThat(w).containsExactly(1.0, 1.0);
  }

  @Test
  void wordsNoRepositoryHoldsAndAWorkspaceOfOneWeighNothing() throws IOException {
    IndexReader a = repo(10, 8, "socket");
    IndexReader b = repo(10, 1, "socket");
    assertThat(RepositoryPrior.weights(List.of(a, b), Set.of("nowhere")))
        .containsExactly(1.0, 1.0);
    assertThat(RepositoryPrior.weights(List.of(a, b), Set.of())).containsExactly(1.0, 1.0);
    assertThat(RepositoryPrior.weights(List.of(b), Set.of("socket"))).containsExactly(1.0);
  }
}
