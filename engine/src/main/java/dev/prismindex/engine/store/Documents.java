package dev.prismindex.engine.store;

import dev.prismindex.engine.analysis.GramTokenStream;
import dev.prismindex.engine.analysis.Grams;
import dev.prismindex.engine.chunk.Chunk;
import dev.prismindex.engine.chunk.SourceLines;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

/** Builds the FILE and CHUNK documents of {@link Schema}. */
public final class Documents {

  private static final FieldType GRAM_TYPE = new FieldType();

  static {
    GRAM_TYPE.setIndexOptions(IndexOptions.DOCS);
    GRAM_TYPE.setTokenized(true);
    GRAM_TYPE.setOmitNorms(true);
    GRAM_TYPE.setStored(false);
    GRAM_TYPE.freeze();
  }

  private Documents() {}

  /** The FILE document: manifest entry plus the n-gram postings of its lines and path. */
  public static Document file(FileEntry e, List<String> lines) {
    Set<String> grams = Grams.newSet();
    for (String line : lines) {
      Grams.addLineGrams(line, grams);
    }
    Grams.addLineGrams(e.path(), grams);
    Document d = new Document();
    d.add(new StringField(Schema.TYPE, Schema.TYPE_FILE, Field.Store.NO));
    d.add(new StringField(Schema.PATH, e.path(), Field.Store.YES));
    d.add(new StringField(Schema.FILE_KEY, e.path(), Field.Store.NO));
    d.add(new SortedDocValuesField(Schema.PATH_SORT, new BytesRef(e.path())));
    d.add(new StoredField(Schema.HASH, e.hash()));
    d.add(new StoredField(Schema.SIZE, e.size()));
    d.add(new StoredField(Schema.MTIME_NS, e.mtimeNs()));
    d.add(new StoredField(Schema.RECORDED_MS, e.recordedMs()));
    d.add(new StoredField(Schema.LANGUAGE, e.language()));
    d.add(new StoredField(Schema.CHUNK_COUNT, e.chunks()));
    d.add(new Field(Schema.GRAMS, new GramTokenStream(grams), GRAM_TYPE));
    return d;
  }

  /** The FILE document from the file's text. */
  public static Document file(FileEntry e, String text) {
    return file(e, SourceLines.split(text));
  }

  /** The CHUNK documents of a file. */
  public static List<Document> chunks(String path, String language, List<Chunk> chunks) {
    List<Document> docs = new ArrayList<>(chunks.size());
    String pathText = path.replace('/', ' ').replace('.', ' ');
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      Document d = new Document();
      d.add(new StringField(Schema.TYPE, Schema.TYPE_CHUNK, Field.Store.NO));
      d.add(new StringField(Schema.PATH, path, Field.Store.YES));
      d.add(new StoredField(Schema.CHUNK_ID, path + "#" + i));
      d.add(new StoredField(Schema.CHUNK_HASH, Hashing.blake3(c.text())));
      d.add(new StoredField(Schema.START_LINE, c.startLine()));
      d.add(new StoredField(Schema.END_LINE, c.endLine()));
      d.add(new StoredField(Schema.LANGUAGE, language));
      StringJoiner names = new StringJoiner(" ");
      for (Chunk.Symbol s : c.symbols()) {
        d.add(new StoredField(Schema.SYMBOLS, s.line() + ":" + s.name()));
        names.add(s.name());
      }
      d.add(new TextField(Schema.BODY, c.text(), Field.Store.NO));
      d.add(new TextField(Schema.SYMBOL, names.toString(), Field.Store.NO));
      d.add(new TextField(Schema.PATH_TEXT, pathText, Field.Store.NO));
      docs.add(d);
    }
    return docs;
  }
}
