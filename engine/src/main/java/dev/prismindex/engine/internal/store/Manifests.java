package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.jspecify.annotations.Nullable;

/**
 * Reading the manifest (the FILE documents) and the remembered skips (the SKIPPED documents) of a
 * commit: all of it, the part at or below some paths, or one file's entry. Everything is read from
 * doc values, column by column in document order (no stored-field block is decompressed): loading
 * the manifest of a large repository is the fixed cost of every no-change run.
 */
public final class Manifests {

  private Manifests() {}

  /** The manifest (every live FILE document) of the commit {@code s} reads. */
  static Map<String, FileEntry> read(IndexSearcher s) throws IOException {
    return read(s, null);
  }

  /**
   * The entries of the commit {@code s} reads whose path equals or lies below a path of {@code
   * scope} (repository-relative, {@code /}-separated): a seek in the terms of {@link
   * Schema#FILE_KEY} per scope path, so the cost follows the scope, not the index.
   */
  static Map<String, FileEntry> read(IndexSearcher s, @Nullable Set<String> scope)
      throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int[][] docs = new int[leaves.size()][];
    int total = 0;
    for (int i = 0; i < docs.length; i++) {
      docs[i] = docs(leaves.get(i).reader(), Schema.FILE_KEY, Schema.TYPE_FILE, scope);
      total += docs[i].length;
    }
    Map<String, FileEntry> out = new HashMap<>(Math.max(16, (int) (total / 0.75f) + 1));
    for (int i = 0; i < docs.length; i++) {
      files(leaves.get(i).reader(), docs[i], out);
    }
    return out;
  }

  /** The remembered skips of the commit {@code s} reads (at or below {@code scope}, unless null). */
  static Map<String, SkippedFile> skipped(IndexSearcher s, @Nullable Set<String> scope)
      throws IOException {
    Map<String, SkippedFile> out = new HashMap<>();
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      LeafReader r = leaf.reader();
      int[] docs = docs(r, Schema.SKIP_KEY, Schema.TYPE_SKIPPED, scope);
      if (docs.length == 0) {
        continue;
      }
      StatColumns stat = new StatColumns(r);
      SortedDocValues reason = DocValues.getSorted(r, Schema.SKIP_REASON);
      for (int doc : docs) {
        if (stat.advanceExact(doc) && reason.advanceExact(doc)) {
          String p = stat.path();
          SkipReason why = SkipReason.valueOf(reason.lookupOrd(reason.ordValue()).utf8ToString());
          out.put(p, new SkippedFile(p, why, stat.size.longValue(), stat.mtime.longValue(),
              stat.recorded.longValue()));
        }
      }
    }
    return out;
  }

  /** The manifest entry of one file, from the given searcher. */
  public static @Nullable FileEntry lookup(IndexSearcher s, String path) throws IOException {
    Map<String, FileEntry> out = new HashMap<>(2);
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(Schema.FILE_KEY);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      if (te.seekExact(new BytesRef(path))) {
        DocList docs = new DocList();
        collect(te, null, leaf.reader().getLiveDocs(), docs);
        files(leaf.reader(), docs.sorted(), out);
      }
    }
    return out.get(path);
  }

  /**
   * The live documents of a leaf: with a {@code scope}, those with a term of {@code keyField} equal
   * to or below one of its paths; without, every document of {@link Schema#TYPE} {@code type}. In
   * increasing order (doc values are read forward only).
   */
  private static int[] docs(LeafReader r, String keyField, String type,
      @Nullable Set<String> scope) throws IOException {
    Bits live = r.getLiveDocs();
    DocList out = new DocList();
    if (scope == null) {
      Terms types = r.terms(Schema.TYPE);
      TermsEnum te = types == null ? null : types.iterator();
      if (te != null && te.seekExact(new BytesRef(type))) {
        collect(te, null, live, out);
      }
      return out.sorted();
    }
    Terms terms = r.terms(keyField);
    if (terms == null) {
      return new int[0];
    }
    TermsEnum te = terms.iterator();
    PostingsEnum postings = null;
    for (String path : scope) {
      if (te.seekExact(new BytesRef(path))) {
        postings = collect(te, postings, live, out);
      }
      BytesRef below = new BytesRef(path + "/");
      if (te.seekCeil(below) == TermsEnum.SeekStatus.END) {
        continue;
      }
      do {
        if (!StringHelper.startsWith(te.term(), below)) {
          break;
        }
        postings = collect(te, postings, live, out);
      } while (te.next() != null);
    }
    return out.sorted();
  }

  private static PostingsEnum collect(TermsEnum te, @Nullable PostingsEnum reuse,
      @Nullable Bits live, DocList out) throws IOException {
    PostingsEnum docs = te.postings(reuse, PostingsEnum.NONE);
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (live == null || live.get(doc)) {
        out.add(doc);
      }
    }
    return docs;
  }

  /** Reads the FILE entries of {@code docs} (increasing) into {@code out}. */
  private static void files(LeafReader r, int[] docs, Map<String, FileEntry> out)
      throws IOException {
    if (docs.length == 0) {
      return;
    }
    StatColumns stat = new StatColumns(r);
    BinaryDocValues hash = DocValues.getBinary(r, Schema.HASH);
    SortedDocValues language = DocValues.getSorted(r, Schema.FILE_LANGUAGE);
    NumericDocValues chunks = DocValues.getNumeric(r, Schema.CHUNK_COUNT);
    String[] languages = new String[language.getValueCount()];
    for (int doc : docs) {
      if (stat.advanceExact(doc) && hash.advanceExact(doc) && language.advanceExact(doc)
          && chunks.advanceExact(doc)) {
        String p = stat.path();
        int ord = language.ordValue();
        if (languages[ord] == null) {
          languages[ord] = string(language.lookupOrd(ord));
        }
        out.put(p, new FileEntry(p, Hashing.fromStored(hash.binaryValue()),
            stat.size.longValue(), stat.mtime.longValue(), stat.recorded.longValue(),
            languages[ord], (int) chunks.longValue()));
      }
    }
  }

  /**
   * The columns a FILE and a SKIPPED document both have, read forward over one leaf: the path and
   * the stat data (size, modification time, when it was recorded).
   */
  private static final class StatColumns {
    final SortedDocValues path;
    final NumericDocValues size;
    final NumericDocValues mtime;
    final NumericDocValues recorded;

    StatColumns(LeafReader r) throws IOException {
      path = DocValues.getSorted(r, Schema.PATH_SORT);
      size = DocValues.getNumeric(r, Schema.SIZE);
      mtime = DocValues.getNumeric(r, Schema.MTIME_NS);
      recorded = DocValues.getNumeric(r, Schema.RECORDED_MS);
    }

    /** Whether {@code doc} has all four (then the accessors read its values). */
    boolean advanceExact(int doc) throws IOException {
      return path.advanceExact(doc) && size.advanceExact(doc) && mtime.advanceExact(doc)
          && recorded.advanceExact(doc);
    }

    String path() throws IOException {
      return string(path.lookupOrd(path.ordValue()));
    }
  }

  /** The UTF-8 bytes as a string (the JDK's decoder copies ASCII bytes as is). */
  private static String string(BytesRef b) {
    return new String(b.bytes, b.offset, b.length, StandardCharsets.UTF_8);
  }

  /** A growable list of document ids. */
  private static final class DocList {
    private int[] docs = new int[64];
    private int size;

    void add(int doc) {
      if (size == docs.length) {
        docs = Arrays.copyOf(docs, size * 2);
      }
      docs[size++] = doc;
    }

    int[] sorted() {
      int[] out = Arrays.copyOf(docs, size);
      Arrays.sort(out);
      return out;
    }
  }
}
