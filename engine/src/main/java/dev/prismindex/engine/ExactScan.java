package dev.prismindex.engine;

import dev.prismindex.engine.internal.query.LiteralHits;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.walk.WalkListing;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchSink;
import dev.prismindex.repository.TruncationReason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Exact search without an index: core's scanner over the files an index of the root would read
 * ({@link RepositoryOperations#listed} over the index's walk, {@link WalkListing}: git's listing
 * through JGit, or the file system outside git; {@code .prismignore}, the pruned directories, the
 * name rules and the secret deny list by name; links never followed) reads the files in path
 * order and its matches become the same {@link Hit}s an index answers ({@link HybridIndex#stream}),
 * handed to the sink as they are found. Bounded by {@link #LIMITS} (files, bytes a file, bytes of
 * lines in all, depth, time); a search that stops at a bound says which ({@link
 * Result#stoppedBy()}).
 */
public final class ExactScan {

  /**
   * The scanner's bounds: {@link RepositoryLimits}' hard caps on the files and entries listed, the
   * bytes of lines read in all, the depth, the time and a line's length (a longer one is reported
   * as a window around the match); its default largest file.
   */
  public static final RepositoryLimits LIMITS = RepositoryLimits.builder()
      .maxFiles(RepositoryLimits.HARD_MAX_REPO_FILES)
      .maxEntries(RepositoryLimits.HARD_MAX_REPO_ENTRIES)
      .maxScanBytes(RepositoryLimits.HARD_MAX_SEARCH_SCAN_BYTES)
      .maxDepth(RepositoryLimits.HARD_MAX_REPO_DEPTH)
      .maxTimeMs(RepositoryLimits.HARD_MAX_SEARCH_TIME_MS)
      .maxLineBytes(RepositoryLimits.HARD_MAX_SEARCH_LINE_BYTES).build();

  private ExactScan() {}

  /**
   * What a scan found besides its hits.
   *
   * @param result the hits (none when streamed), the mode, what was not searched (binary,
   *     oversize, unreadable, by reason) and whether the limit cut the answer
   * @param scannedFiles files whose scan began
   * @param stoppedBy the bound that stopped the scan before every file was read (files, entries,
   *     depth, scan, time), or null; the limit is {@link SearchResult#truncated()}
   */
  public record Result(SearchResult result, long scannedFiles,
      @Nullable TruncationReason stoppedBy) {}

  /**
   * Scans the repository at {@code root} for {@code query} in an exact mode, handing the hits to
   * {@code sink} in path and line order as they are found, up to {@link SearchOpts#limit()}.
   *
   * @throws IllegalArgumentException for a ranked mode, or a query that does not compile
   * @throws dev.prismindex.repository.RepositoryException when the root cannot be read
   */
  public static Result stream(Path root, String query, SearchOpts opts, Consumer<Hit> sink) {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(sink, "sink");
    if (!SearchOpts.exact(opts.mode())) {
      throw new IllegalArgumentException("only the exact modes scan: " + opts.mode().wireName());
    }
    FileMatcher files = FileMatcher.of(opts.files());
    List<String> scopes = opts.files().scopes();
    int context = Math.max(opts.contextBefore(), opts.contextAfter());
    RepositorySearchRequest request = RepositorySearchRequest.builder(root, query)
        .mode(opts.mode() == dev.prismindex.repository.SearchMode.REGEX ? opts.mode()
            : dev.prismindex.repository.SearchMode.LITERAL)
        .caseSensitive(opts.caseSensitive()).wholeWords(opts.wholeWords())
        .path(scopes.size() == 1 ? scopes.get(0) : null).context(context)
        // the listing decides which files are read: no hidden-name or base-name rule of its own
        .includeHidden(true).exclude(List.of()).build();
    RepositoryOperations scanner = RepositoryOperations.listed(
        new WalkListing(HybridIndexOptions.builder(root).build()), LIMITS);
    int[] emitted = {0};
    boolean[] more = {false};
    RepositorySearchResult r = scanner.stream(request, new SearchSink() {
      @Override
      public boolean wants(String path) {
        return files.test(path);
      }

      @Override
      public boolean accept(RepositorySearchMatch m, List<MatchSpan> spans) {
        if (emitted[0] == opts.limit()) {
          more[0] = true;
          return false;
        }
        List<String> before = m.before().subList(Math.max(0,
            m.before().size() - opts.contextBefore()), m.before().size());
        List<String> after = m.after().subList(0, Math.min(m.after().size(),
            opts.contextAfter()));
        LiteralMatch match = new LiteralMatch(m.path(), m.line(), m.column(), m.text(),
            textStart(spans, m), before, after, spans);
        sink.accept(LiteralHits.hit(match, query, opts.mode(), LiteralHits.Snippet.CENTRED,
            opts.wantsContext(), ++emitted[0]));
        return true;
      }
    });
    Map<String, Integer> notSearched = new TreeMap<>();
    put(notSearched, "binary", r.filesSkippedBinary());
    put(notSearched, "oversize", r.filesSkippedOversize());
    put(notSearched, "unreadable", r.filesSkippedUnreadable());
    TruncationReason stop = more[0] ? null : r.truncatedBy();
    return new Result(new SearchResult(List.of(), opts.mode(), new SemanticCoverage(0, 0),
        notSearched, more[0]), r.scannedFiles(), stop);
  }

  /**
   * Where the reported text of a match starts in its line: 0, unless the line was longer than
   * {@link #LIMITS}' {@code maxLineBytes} and cut to core's window around the match ({@code
   * LiteralPattern.window}: from {@code maxLineBytes / 4} units before it, one less not to split
   * a surrogate pair), which the first span's text confirms.
   */
  private static int textStart(List<MatchSpan> spans, RepositorySearchMatch m) {
    if (spans.isEmpty()) {
      return 0;
    }
    MatchSpan first = spans.get(0);
    int at = first.column() - 1;
    String text = m.text();
    if (at <= text.length() && text.startsWith(first.text(), at)) {
      return 0;
    }
    int start = Math.max(0, at - LIMITS.maxLineBytes() / 4);
    for (int s = start; s >= Math.max(0, start - 1); s--) {
      if (at - s <= text.length() && text.startsWith(first.text(), at - s)) {
        return s;
      }
    }
    return 0;
  }

  private static void put(Map<String, Integer> counts, String reason, long n) {
    if (n > 0) {
      counts.put(reason, (int) Math.min(Integer.MAX_VALUE, n));
    }
  }

  /** The hits of a scan, collected (tests; the command line streams). */
  static List<Hit> collect(Path root, String query, SearchOpts opts) {
    List<Hit> hits = new ArrayList<>();
    stream(root, query, opts, hits::add);
    return hits;
  }
}
