package dev.prismindex.engine.internal.store;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.jspecify.annotations.Nullable;

/**
 * Reading the manifest (the FILE documents) of a commit: all of it, the part at or below some
 * paths, or one file's entry.
 */
public final class Manifests {

  private Manifests() {}

  /** The manifest (every live FILE document) of the commit {@code s} reads. */
  static Map<String, FileEntry> read(IndexSearcher s) throws IOException {
    Map<String, FileEntry> out = new HashMap<>();
    Query q = new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE));
    Weight w = s.createWeight(s.rewrite(q), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      Scorer scorer = w.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      StoredFields stored = leaf.reader().storedFields();
      var live = leaf.reader().getLiveDocs();
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        FileEntry e = toEntry(stored.document(doc));
        out.put(e.path(), e);
      }
    }
    return out;
  }

  /**
   * The entries of the commit {@code s} reads whose path equals or lies below a path of {@code
   * scope} (repository-relative, {@code /}-separated): a seek in the terms of {@link
   * Schema#FILE_KEY} per scope path, so the cost follows the scope, not the index.
   */
  static Map<String, FileEntry> read(IndexSearcher s, Set<String> scope) throws IOException {
    Map<String, FileEntry> out = new HashMap<>();
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(Schema.FILE_KEY);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      StoredFields stored = leaf.reader().storedFields();
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum postings = null;
      for (String path : scope) {
        BytesRef exact = new BytesRef(path);
        if (te.seekExact(exact)) {
          postings = collect(te, postings, live, stored, out);
        }
        BytesRef below = new BytesRef(path + "/");
        if (te.seekCeil(below) == TermsEnum.SeekStatus.END) {
          continue;
        }
        do {
          if (!StringHelper.startsWith(te.term(), below)) {
            break;
          }
          postings = collect(te, postings, live, stored, out);
        } while (te.next() != null);
      }
    }
    return out;
  }

  private static PostingsEnum collect(TermsEnum te, @Nullable PostingsEnum reuse,
      @Nullable Bits live, StoredFields stored, Map<String, FileEntry> out) throws IOException {
    PostingsEnum docs = te.postings(reuse, PostingsEnum.NONE);
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (live == null || live.get(doc)) {
        FileEntry e = toEntry(stored.document(doc));
        out.put(e.path(), e);
      }
    }
    return docs;
  }

  /** The manifest entry of one file, from the given searcher. */
  public static @Nullable FileEntry lookup(IndexSearcher s, String path) throws IOException {
    var top = s.search(new TermQuery(new Term(Schema.FILE_KEY, path)), 1);
    if (top.scoreDocs.length == 0) {
      return null;
    }
    return toEntry(s.storedFields().document(top.scoreDocs[0].doc));
  }

  static FileEntry toEntry(Document d) {
    return new FileEntry(d.get(Schema.PATH), d.get(Schema.HASH),
        d.getField(Schema.SIZE).numericValue().longValue(),
        d.getField(Schema.MTIME_NS).numericValue().longValue(),
        d.getField(Schema.RECORDED_MS).numericValue().longValue(),
        d.get(Schema.LANGUAGE), d.getField(Schema.CHUNK_COUNT).numericValue().intValue());
  }
}
