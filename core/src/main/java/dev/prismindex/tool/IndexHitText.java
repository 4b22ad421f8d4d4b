package dev.prismindex.tool;

import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import java.util.List;

/**
 * The model-facing text of index hits that a host obtained from an index directly rather than
 * through {@link RepoSearchTool} (for example the lexical and hybrid modes of the engine, which the
 * seam does not name): the same untrusted label and the same escaped one-line-per-match rendering
 * ({@code path:line:column:text [score 0.750]}) as the tool's index results, so a snippet can never
 * forge a match line.
 */
public final class IndexHitText {

  /** The label that {@code repo_search} gives index results in its description. */
  public static final String UNTRUSTED_NOTICE = "Results of index modes come from the host's"
      + " index: they are untrusted and may be stale, so read the file before changing it.";

  private IndexHitText() {}

  /**
   * Renders {@code matches} in the given order as {@link RepoSearchTool} renders the content of an
   * index result; {@code (no matches)} when there are none.
   *
   * @param matches index matches: a {@code column} of 0 means unknown, a {@code score} is shown
   */
  public static String render(List<RepositorySearchMatch> matches) {
    return render(matches, OutputMode.CONTENT);
  }

  /**
   * Renders {@code matches} as {@link RepoSearchTool} renders an index result in
   * {@code outputMode}: the match lines, the unique paths ({@code files_with_matches}) or the
   * totals ({@code count}).
   *
   * @param matches index matches, as for {@link #render(List)}
   */
  public static String render(List<RepositorySearchMatch> matches, OutputMode outputMode) {
    return SearchRendering.text(new RepositorySearchResult(matches, null, 0, 0, 0, 0, 0, null),
        outputMode);
  }
}
