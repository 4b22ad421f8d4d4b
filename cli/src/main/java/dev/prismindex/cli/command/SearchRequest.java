package dev.prismindex.cli.command;

import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A validated {@code search}, whichever surface asked for it (the command line, the resident
 * server, which runs the same command line, or the MCP tool {@code repo_search}). Built only by
 * {@link SearchRequests#validate}, except for internal searches such as the server's warm-up.
 *
 * @param target the repository and its index
 * @param json whether output is NDJSON (the MCP tool's structured hits are the same objects)
 * @param query the query, not blank, at most {@link SearchRequests#MAX_QUERY_BYTES} in UTF-8
 * @param mode the requested mode, or null when none was given (hybrid when a model and vectors
 *     are there, else lexical)
 * @param limit 1..{@value SearchRequests#MAX_LIMIT}
 * @param files which files hits may come from: the path scopes (any of them), the languages and
 *     the globs (the command line's, then the configuration's excludes)
 * @param contextBefore lines shown before each hit, 0..{@value SearchRequests#MAX_CONTEXT}
 * @param contextAfter lines shown after each hit, 0..{@value SearchRequests#MAX_CONTEXT}
 * @param caseSensitive exact case (the exact modes only)
 * @param refresh whether to probe for changes and catch up before answering
 * @param maxRefreshFiles the largest change set re-indexed before answering
 * @param wholeWords whole-word matches only ({@link SearchMode#REGEX} only: {@code -w} with
 *     {@code -F} searches the quoted strings as a regex)
 * @param maxPerFile at most this many hits from each file, the first ones in an exact mode, the
 *     best ones in a ranked mode (grep's {@code -m}); 0 for no cap
 */
public record SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
    int limit, FileFilter files, int contextBefore, int contextAfter, boolean caseSensitive,
    boolean refresh, int maxRefreshFiles, boolean wholeWords, int maxPerFile)
    implements Requests.Request {

  public SearchRequest {
    Objects.requireNonNull(files, "files");
    if (maxPerFile < 0) {
      throw new IllegalArgumentException("maxPerFile must be 0 (no cap) or positive: "
          + maxPerFile);
    }
  }

  /** A search without a cap per file. */
  public SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
      int limit, FileFilter files, int contextBefore, int contextAfter, boolean caseSensitive,
      boolean refresh, int maxRefreshFiles, boolean wholeWords) {
    this(target, json, query, mode, limit, files, contextBefore, contextAfter, caseSensitive,
        refresh, maxRefreshFiles, wholeWords, 0);
  }

  /** A search without whole-word matching. */
  public SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
      int limit, FileFilter files, int contextBefore, int contextAfter, boolean caseSensitive,
      boolean refresh, int maxRefreshFiles) {
    this(target, json, query, mode, limit, files, contextBefore, contextAfter, caseSensitive,
        refresh, maxRefreshFiles, false);
  }

  /** A search of the whole repository without context lines. */
  public SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
      int limit, boolean caseSensitive, boolean refresh, int maxRefreshFiles) {
    this(target, json, query, mode, limit, FileFilter.ALL, 0, 0, caseSensitive, refresh,
        maxRefreshFiles);
  }

  /** Whether the mode is an exact one (literal, regex): every match, streamed. */
  public boolean exact() {
    return mode != null && mode.exact();
  }

  /** This search with another limit (1..{@value SearchRequests#MAX_LIMIT}, any for exact modes). */
  public SearchRequest withLimit(int newLimit) {
    return new SearchRequest(target, json, query, mode, newLimit, files, contextBefore,
        contextAfter, caseSensitive, refresh, maxRefreshFiles, wholeWords, maxPerFile);
  }

  /** This search with at most {@code value} hits from each file (grep's {@code -m}). */
  public SearchRequest withMaxPerFile(int value) {
    return new SearchRequest(target, json, query, mode, limit, files, contextBefore,
        contextAfter, caseSensitive, refresh, maxRefreshFiles, wholeWords, value);
  }

  /**
   * The engine's options for this search in {@code resolved} mode (the requested one, or the
   * automatic choice once made), the same for every backend.
   */
  public SearchOpts opts(SearchMode resolved) {
    boolean exact = resolved.exact();
    return SearchOpts.builder().limit(limit).mode(resolved).files(files)
        .context(contextBefore, contextAfter).caseSensitive(exact && caseSensitive)
        .wholeWords(wholeWords).maxPerFile(exact ? maxPerFile : 0).build();
  }

  /** The wire name of the requested mode, {@code auto} when none was given. */
  public String modeName() {
    return mode == null ? "auto" : mode.wireName();
  }
}
