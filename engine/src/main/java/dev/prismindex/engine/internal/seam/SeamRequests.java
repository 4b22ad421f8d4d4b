package dev.prismindex.engine.internal.seam;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.query.QueryPlanner.LiteralAnswer;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The seam's requests ({@code RepositoryIndexBackend} update, remove, search) for any store
 * ({@link SeamTarget}): requests checked and turned into runs and searches, answers turned into
 * the contract's types. {@link IndexSearchHit} is built from {@link Hit} here only ({@link
 * #toSeam}).
 */
public final class SeamRequests {

  /** Seam snippets are cut to this many UTF-16 units (the seam's hard snippet cap is 16 KiB). */
  private static final int MAX_SEAM_SNIPPET_CHARS = 4096;

  private SeamRequests() {}

  /** See {@code HybridIndex.update}. */
  public static void update(SeamTarget target, IndexUpdateRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    String revision = request.sourceRevision();
    if (revision == null || revision.isEmpty()) {
      throw new IllegalArgumentException("sourceRevision is required");
    }
    List<String> upserts = new ArrayList<>();
    List<String> deletes = new ArrayList<>();
    for (IndexFileChange change : request.changes() == null ? List.<IndexFileChange>of()
        : request.changes()) {
      if (change == null || change.path() == null || change.kind() == null) {
        throw new IllegalArgumentException("invalid change");
      }
      String path = RelativePath.normalise(change.path());
      if (change.kind() == IndexFileChangeKind.DELETE) {
        deletes.add(path);
      } else {
        if (change.kind() == IndexFileChangeKind.RENAME && change.oldPath() != null) {
          deletes.add(RelativePath.normalise(change.oldPath()));
        }
        upserts.add(path);
      }
    }
    target.update(upserts, deletes, revision);
  }

  /** See {@code HybridIndex.remove}. */
  public static void remove(SeamTarget target, IndexRemoveRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    List<String> paths = new ArrayList<>();
    for (String p : request.paths() == null ? List.<String>of() : request.paths()) {
      if (p == null) {
        throw new IllegalArgumentException("invalid path");
      }
      paths.add(RelativePath.normalise(p));
    }
    if (!paths.isEmpty()) {
      target.remove(paths);
    }
  }

  /** See {@code HybridIndex.search(IndexQuery)}. */
  public static IndexQueryResult search(SeamTarget target, IndexQuery query) throws IOException {
    Objects.requireNonNull(query, "query");
    if (query.mode() == SearchMode.SEMANTIC) {
      return ranked(target, query, target.seamSemanticMode());
    }
    if (query.mode() == SearchMode.LEXICAL || query.mode() == SearchMode.HYBRID) {
      return ranked(target, query, query.mode());
    }
    if (query.mode() != SearchMode.INDEXED_LITERAL) {
      throw new IllegalArgumentException("unsupported index mode: " + query.mode().wireName());
    }
    LiteralAnswer a = target.literal(query.query(), query.caseSensitive(), query.scope(),
        query.maxResults(), true, query.signal(), SearchMode.INDEXED_LITERAL, Snippet.TEXT);
    List<IndexSearchHit> hits = new ArrayList<>(a.hits().size());
    for (Hit h : a.hits()) {
      hits.add(toSeam(h));
    }
    return new IndexQueryResult(hits, a.truncated());
  }

  /** A ranked answer in {@code mode}, one hit per file (its best), {@code truncated} at the cap. */
  private static IndexQueryResult ranked(SeamTarget target, IndexQuery query, SearchMode mode)
      throws IOException {
    int max = Math.max(1, Math.min(query.maxResults(), SearchOpts.MAX_LIMIT));
    SearchOpts opts = new SearchOpts(Math.min(SearchOpts.MAX_LIMIT, max * 3), mode,
        query.scope());
    List<IndexSearchHit> hits = new ArrayList<>();
    Set<String> files = new HashSet<>();
    for (Hit h : target.search(query.query(), opts).hits()) {
      if (hits.size() == max) {
        break;
      }
      if (files.add(h.path())) {
        hits.add(toSeam(h));
      }
    }
    return new IndexQueryResult(hits, hits.size() == max);
  }

  /** The contract's hit for an engine hit: the one place this conversion happens. */
  static IndexSearchHit toSeam(Hit h) {
    String text = h.snippet();
    String snippet = text.length() > MAX_SEAM_SNIPPET_CHARS
        ? text.substring(0, MAX_SEAM_SNIPPET_CHARS) : text;
    return new IndexSearchHit(h.path(), h.score(), snippet, h.line(), h.endLine(), h.column());
  }

}
