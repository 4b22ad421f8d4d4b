package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.store.Int8Vectors;
import dev.prismindex.engine.internal.store.Schema;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index stores each vector as int8 only (format 6): one byte field per dimension, cosine, no
 * float field, the bytes those of {@link Int8Vectors#encode}; and semantic search over them finds
 * the chunk whose text is the query.
 */
class Int8VectorIndexTest {

  @TempDir Path root;

  @Test
  void vectorsAreStoredAsBytesOnlyAndSemanticSearchFindsTheChunk() throws Exception {
    String[] words = {"duration", "checksum", "invoice", "thumbnail", "firmware", "playlist"};
    for (String w : words) {
      write(root, "src/" + w + ".py", TestRepos.pyFunction(w + "_handler", w));
    }
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.FULL);
      for (String w : words) {
        List<Hit> hits = index.search(w + " handler " + w, SearchOpts.semantic(3));
        assertThat(hits).as(w).isNotEmpty();
        assertThat(hits.get(0).path()).as(w).isEqualTo("src/" + w + ".py");
      }
    }
    int dim = TestEmbedders.fake().dimension();
    try (FSDirectory dir = FSDirectory.open(root.resolve(".prism-index/lucene"));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      long vectors = 0;
      for (LeafReaderContext leaf : reader.leaves()) {
        for (FieldInfo f : leaf.reader().getFieldInfos()) {
          if (f.getVectorDimension() > 0) {
            assertThat(f.name).isEqualTo(Schema.vectorField(dim)).startsWith("vector_i8_");
            assertThat(f.getVectorEncoding()).isEqualTo(VectorEncoding.BYTE);
            assertThat(f.getVectorSimilarityFunction()).isEqualTo(VectorSimilarityFunction.COSINE);
          }
        }
        ByteVectorValues values = leaf.reader().getByteVectorValues(Schema.vectorField(dim));
        if (values == null) {
          continue;
        }
        for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
          byte[] v = values.vectorValue();
          assertThat(v).hasSize(dim);
          int max = 0;
          for (byte b : v) {
            max = Math.max(max, Math.abs(b));
          }
          assertThat(max).isEqualTo(127);
          vectors++;
        }
      }
      assertThat(vectors).isGreaterThanOrEqualTo(words.length);
    }
  }
}
