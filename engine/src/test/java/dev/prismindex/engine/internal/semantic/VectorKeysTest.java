package dev.prismindex.engine.internal.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.store.Schema;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vector's key is read from its doc values, of either layout (format 9's {@code vec_key}, older
 * {@code vec_hash}): the live keys leave out deleted vectors, and the key query matches exactly
 * the vectors of the keys given, in every segment, also to delete them.
 */
class VectorKeysTest {

  @TempDir Path dir;

  private static BytesRef key(int i) {
    byte[] b = new byte[16];
    b[0] = (byte) i;
    b[15] = (byte) (i * 7);
    return new BytesRef(b);
  }

  /** A vector document as format 9 writes it, or, for odd {@code i}, as format 8 did. */
  private static Document vector(int i) {
    Document d = new Document();
    d.add(new StringField("id", Integer.toString(i), Field.Store.YES));
    d.add(new StringField(Schema.TYPE, Schema.TYPE_VECTOR, Field.Store.NO));
    if (i % 2 == 0) {
      d.add(new BinaryDocValuesField(Schema.VEC_KEY, key(i)));
    } else {
      d.add(new StringField(Schema.VEC_HASH, key(i), Field.Store.NO));
      d.add(new BinaryDocValuesField(Schema.VEC_HASH, key(i)));
    }
    return d;
  }

  @Test
  void liveKeysAndTheKeyQueryFollowTheDocValuesAndDeletions() throws Exception {
    try (FSDirectory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
      for (int i = 0; i < 10; i++) {
        w.addDocument(vector(i));
        if (i == 4) {
          w.commit(); // two segments
        }
      }
      w.addDocument(new Document()); // a document without a key
      w.deleteDocuments(new Term("id", "3"));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(d)) {
        VectorKeys live = VectorKeys.live(r);
        assertThat(live.size()).isEqualTo(9);
        assertThat(live.contains(key(2))).isTrue();
        assertThat(live.contains(key(3))).isFalse(); // deleted
        assertThat(live.contains(key(42))).isFalse();
        IndexSearcher searcher = new IndexSearcher(r);
        assertThat(searcher.count(VectorKeys.matching(List.of(key(1), key(8), key(42)))))
            .isEqualTo(2);
        assertThat(VectorKeys.matching(List.of(key(1))))
            .isEqualTo(VectorKeys.matching(List.of(key(1))))
            .isNotEqualTo(VectorKeys.matching(List.of(key(2))));
      }
      w.deleteDocuments(VectorKeys.matching(List.of(key(1), key(8))));
      w.commit();
      try (DirectoryReader r = DirectoryReader.open(d)) {
        assertThat(VectorKeys.live(r).size()).isEqualTo(7);
        assertThat(VectorKeys.live(r).contains(key(8))).isFalse();
        assertThat(VectorKeys.live(r).contains(key(9))).isTrue();
        assertThat(r.numDocs()).isEqualTo(8);
      }
    }
  }
}
