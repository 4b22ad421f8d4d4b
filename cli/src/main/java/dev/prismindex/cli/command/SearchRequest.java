package dev.prismindex.cli.command;

import dev.prismindex.engine.FileFilter;
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
 * @param caseSensitive exact case ({@link SearchMode#LITERAL} only)
 * @param refresh whether to probe for changes and catch up before answering
 * @param maxRefreshFiles the largest change set re-indexed before answering
 */
public record SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
    int limit, FileFilter files, int contextBefore, int contextAfter, boolean caseSensitive,
    boolean refresh, int maxRefreshFiles) implements Requests.Request {

  public SearchRequest {
    Objects.requireNonNull(files, "files");
  }

  /** A search of the whole repository without context lines. */
  public SearchRequest(Target target, boolean json, String query, @Nullable SearchMode mode,
      int limit, boolean caseSensitive, boolean refresh, int maxRefreshFiles) {
    this(target, json, query, mode, limit, FileFilter.ALL, 0, 0, caseSensitive, refresh,
        maxRefreshFiles);
  }

  /** This search with another limit, 1..{@value SearchRequests#MAX_LIMIT}. */
  public SearchRequest withLimit(int newLimit) {
    return new SearchRequest(target, json, query, mode, newLimit, files, contextBefore,
        contextAfter, caseSensitive, refresh, maxRefreshFiles);
  }

  /** The wire name of the requested mode, {@code auto} when none was given. */
  public String modeName() {
    return mode == null ? "auto" : mode.wireName();
  }
}
