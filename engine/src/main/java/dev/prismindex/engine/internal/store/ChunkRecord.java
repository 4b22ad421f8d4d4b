package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteArrayDataOutput;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * What a CHUNK document stores about its chunk, in one binary stored field ({@link
 * Schema#CHUNK_RECORD}): its ordinal in the file, first line, line count less one, language,
 * parent type (empty when none), and its definitions (header line less the first line, zig-zag
 * encoded since a split definition's header may come before the chunk, and name). Variable-length
 * integers and UTF-8 strings, so a chunk's record is a few bytes besides its names; before format 8
 * each of these was a stored field of its own, with a field header each and the lines as text.
 *
 * @param ordinal the chunk's position in its file, from 0
 * @param start 1-based first line
 * @param end 1-based last line
 * @param language the file's language
 * @param parent the name of the type the chunk's code sits in, null at a file's top level
 * @param symbols the chunk's definitions, in order
 */
public record ChunkRecord(int ordinal, int start, int end, String language,
    @Nullable String parent, List<Chunk.Symbol> symbols) {

  /** The record of chunk {@code ordinal} of a file of {@code language}. */
  public static ChunkRecord of(int ordinal, Chunk c, String language) {
    return new ChunkRecord(ordinal, c.startLine(), c.endLine(), language, c.parent(), c.symbols());
  }

  /** The stored bytes. */
  public BytesRef encode() {
    int size = 30 + 3 * language.length() + (parent == null ? 0 : 3 * parent.length());
    for (Chunk.Symbol s : symbols) {
      size += 10 + 3 * s.name().length();
    }
    byte[] bytes = new byte[size];
    ByteArrayDataOutput out = new ByteArrayDataOutput(bytes);
    try {
      out.writeVInt(ordinal);
      out.writeVInt(start);
      out.writeVInt(end - start);
      out.writeString(language);
      out.writeString(parent == null ? "" : parent);
      out.writeVInt(symbols.size());
      for (Chunk.Symbol s : symbols) {
        out.writeZInt(s.line() - start);
        out.writeString(s.name());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not thrown by an array
    }
    return new BytesRef(bytes, 0, out.getPosition());
  }

  /**
   * Decodes stored bytes.
   *
   * @throws CorruptIndexException when they are not a record (a damaged index)
   */
  public static ChunkRecord decode(BytesRef b) throws CorruptIndexException {
    try {
      ByteArrayDataInput in = new ByteArrayDataInput(b.bytes, b.offset, b.length);
      int ordinal = in.readVInt();
      int start = in.readVInt();
      int end = start + in.readVInt();
      String language = in.readString();
      String parent = in.readString();
      int n = in.readVInt();
      if (ordinal < 0 || start < 1 || end < start || n < 0 || n > b.length) {
        throw new IllegalArgumentException("bad counts");
      }
      List<Chunk.Symbol> symbols = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int line = start + in.readZInt();
        symbols.add(new Chunk.Symbol(in.readString(), line));
      }
      if (!in.eof()) {
        throw new IllegalArgumentException("trailing bytes");
      }
      return new ChunkRecord(ordinal, start, end, language, parent.isEmpty() ? null : parent,
          List.copyOf(symbols));
    } catch (IOException | RuntimeException e) {
      throw new CorruptIndexException("not a chunk record (" + e + ")", "stored field "
          + Schema.CHUNK_RECORD, e);
    }
  }

  private static final Set<String> FIELDS = Set.of(Schema.PATH, Schema.CHUNK_RECORD,
      Schema.CHUNK_ID, Schema.START_LINE, Schema.END_LINE, Schema.SYMBOLS, Schema.LANGUAGE,
      Schema.PARENT);

  /**
   * The stored fields of the CHUNK document {@code doc} of the searcher's reader (its record, or
   * in format 7 and older a stored field each).
   */
  public static ChunkDoc read(IndexSearcher searcher, int doc) throws IOException {
    Document d = searcher.storedFields().document(doc, FIELDS);
    String path = d.get(Schema.PATH);
    BytesRef record = d.getBinaryValue(Schema.CHUNK_RECORD);
    if (record != null) {
      ChunkRecord r = ChunkRecord.decode(record);
      int[] lines = new int[r.symbols().size()];
      List<String> names = new ArrayList<>(lines.length);
      for (int i = 0; i < lines.length; i++) {
        lines[i] = r.symbols().get(i).line();
        names.add(r.symbols().get(i).name());
      }
      return new ChunkDoc(path + "#" + r.ordinal(), path, r.start(), r.end(), lines,
          List.copyOf(names), r.language(), r.parent());
    }
    // Format 7 and older: a stored field each.
    IndexableField[] symbols = d.getFields(Schema.SYMBOLS);
    int[] lines = new int[symbols.length];
    List<String> names = new ArrayList<>(symbols.length);
    for (int i = 0; i < symbols.length; i++) {
      String v = symbols[i].stringValue();
      int colon = v.indexOf(':');
      lines[i] = Integer.parseInt(v.substring(0, colon));
      names.add(v.substring(colon + 1));
    }
    return new ChunkDoc(d.get(Schema.CHUNK_ID), path,
        d.getField(Schema.START_LINE).numericValue().intValue(),
        d.getField(Schema.END_LINE).numericValue().intValue(), lines, List.copyOf(names),
        d.get(Schema.LANGUAGE), d.get(Schema.PARENT));
  }
}
