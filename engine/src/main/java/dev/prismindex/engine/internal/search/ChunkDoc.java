package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.store.ChunkRecord;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The stored fields of one CHUNK document: the unit both engines rank and fusion joins on.
 *
 * @param chunkId {@code path#ordinal}, unique per commit
 * @param path repository-relative path of the file
 * @param start 1-based first line
 * @param end 1-based last line
 * @param symbolLines lines of the chunk's definitions, in order
 * @param symbolNames names of the chunk's definitions, in the same order
 * @param language the file's language
 * @param parent the name of the type the chunk's code sits in, null at a file's top level
 */
public record ChunkDoc(String chunkId, String path, int start, int end, int[] symbolLines,
    List<String> symbolNames, String language, @Nullable String parent) {

  private static final Set<String> FIELDS = Set.of(Schema.PATH, Schema.CHUNK_RECORD,
      Schema.CHUNK_ID, Schema.START_LINE, Schema.END_LINE, Schema.SYMBOLS, Schema.LANGUAGE,
      Schema.PARENT);

  /** Reads the chunk document {@code doc} of the searcher's reader. */
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

  /** The header line of the chunk's main (first) definition, 0 when it has none. */
  public int symbolLine() {
    return symbolLines.length == 0 ? 0 : symbolLines[0];
  }

  /** The ordinal of the chunk within its file (from {@link #chunkId}). */
  public int ordinal() {
    return Integer.parseInt(chunkId.substring(chunkId.lastIndexOf('#') + 1));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkDoc c && c.chunkId.equals(chunkId);
  }

  @Override
  public int hashCode() {
    return chunkId.hashCode();
  }

  @Override
  public String toString() {
    return chunkId + " [" + start + ".." + end + "] " + symbolNames;
  }
}
