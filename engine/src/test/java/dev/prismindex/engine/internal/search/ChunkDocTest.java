package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.analysis.ChunkTerms;
import dev.prismindex.engine.internal.store.ChunkRecord;
import dev.prismindex.engine.internal.store.Documents;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.ChunkDoc;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * A CHUNK document's stored data reads back the same from the one record of format 8 as from the
 * separate stored fields of format 7 and older; bytes that are no record are a corrupt index.
 */
class ChunkDocTest {

  private static final Chunk CHUNK = new Chunk(40, 52,
      List.of(new Chunk.Symbol("Outer", 38), new Chunk.Symbol("\u00e9t\u00e9\uD83D\uDE00", 41),
          new Chunk.Symbol("close", 50)),
      "Outer", "text");

  /** The documents {@code docs} in a fresh index, read back with {@link ChunkDoc#read}. */
  private static List<ChunkDoc> readBack(List<Document> docs) throws Exception {
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
        for (Document d : docs) {
          w.addDocument(d);
        }
      }
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        IndexSearcher s = new IndexSearcher(r);
        return List.of(ChunkRecord.read(s, 0), ChunkRecord.read(s, 1));
      }
    }
  }

  @Test
  void theRecordOfFormat8ReadsAsTheFieldsOfFormat7() throws Exception {
    Document now = Documents.chunks(new ChunkTerms(), "src/a/Outer.java", "java",
        List.of(new Chunk(1, 3, List.of(), null, "x"), CHUNK), null).get(1);
    Document before = new Document();
    before.add(new StringField(Schema.PATH, "src/a/Outer.java", Field.Store.YES));
    before.add(new StoredField(Schema.CHUNK_ID, "src/a/Outer.java#1"));
    before.add(new StoredField(Schema.START_LINE, 40));
    before.add(new StoredField(Schema.END_LINE, 52));
    before.add(new StoredField(Schema.LANGUAGE, "java"));
    before.add(new StoredField(Schema.PARENT, "Outer"));
    for (Chunk.Symbol s : CHUNK.symbols()) {
      before.add(new StoredField(Schema.SYMBOLS, s.line() + ":" + s.name()));
    }
    List<ChunkDoc> read = readBack(List.of(now, before));
    for (ChunkDoc c : read) {
      assertThat(c.chunkId()).isEqualTo("src/a/Outer.java#1");
      assertThat(c.ordinal()).isEqualTo(1);
      assertThat(c.path()).isEqualTo("src/a/Outer.java");
      assertThat(List.of(c.start(), c.end())).containsExactly(40, 52);
      assertThat(c.symbolLines()).containsExactly(38, 41, 50);
      assertThat(c.symbolNames()).containsExactly("Outer", "\u00e9t\u00e9\uD83D\uDE00", "close");
      assertThat(c.language()).isEqualTo("java");
      assertThat(c.parent()).isEqualTo("Outer");
    }
  }

  @Test
  void aRecordRoundTrips() throws Exception {
    ChunkRecord top = new ChunkRecord(0, 1, 1, "python", null, List.of());
    assertThat(ChunkRecord.decode(top.encode())).isEqualTo(top);
    ChunkRecord r = ChunkRecord.of(123_456, CHUNK, "rust");
    assertThat(ChunkRecord.decode(r.encode())).isEqualTo(r);
  }

  @Test
  void bytesThatAreNoRecordAreACorruptIndex() {
    BytesRef good = ChunkRecord.of(3, CHUNK, "java").encode();
    for (BytesRef bad : List.of(new BytesRef(new byte[0]),
        new BytesRef(good.bytes, good.offset, good.length - 1),
        new BytesRef(new byte[] {1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}),
        new BytesRef(new byte[] {1, 5, 1, 4, 'j', 'a', 'v', 'a', 0, 0, 9}))) {
      assertThatThrownBy(() -> ChunkRecord.decode(bad)).isInstanceOf(CorruptIndexException.class)
          .hasMessageContaining("not a chunk record");
    }
  }
}
