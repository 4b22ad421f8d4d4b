package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchOpts} checks a search's limits with the one check every surface uses
 * ({@link RepositoryLimits#requireMatches}, {@link RepositoryLimits#requireContextLines}): the same
 * hard caps and the same messages as the scanner, the seam and the {@code repo_search} tool.
 */
class SearchOptsLimitsTest {

  @Test
  void aRankedLimitIsANumberOfMatchesCheckedAsEverySurfaceChecksIt() {
    int cap = RepositoryLimits.HARD_MAX_SEARCH_MATCHES;
    for (int bad : new int[] {0, -1, cap + 1}) {
      assertThatThrownBy(() -> SearchOpts.builder().mode(SearchMode.LEXICAL).limit(bad).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(message(() -> RepositoryLimits.requireMatches("limit", bad)))
          .hasMessage("limit must be a positive safe integer at most 10000");
      assertThatThrownBy(() -> SearchOpts.builder().limit(bad).build())
          .hasMessage("limit must be a positive safe integer at most 10000");
    }
    assertThat(SearchOpts.builder().mode(SearchMode.HYBRID).limit(cap).build().limit())
        .isEqualTo(cap);
  }

  @Test
  void anExactModeMayAskForEveryMatchButNotForNone() {
    assertThat(SearchOpts.literal(SearchOpts.UNLIMITED, false).limit())
        .isEqualTo(SearchOpts.UNLIMITED);
    assertThat(SearchOpts.builder().mode(SearchMode.REGEX).limit(10_001).build().limit())
        .isEqualTo(10_001);
    assertThatThrownBy(() -> SearchOpts.literal(0, false))
        .hasMessage("limit must be a positive safe integer at most " + SearchOpts.UNLIMITED);
  }

  @Test
  void contextLinesAreTheScannersContextLines() {
    int cap = RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES;
    assertThatThrownBy(() -> SearchOpts.builder().context(cap + 1, 0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("contextBefore must be a non-negative safe integer at most 20");
    assertThatThrownBy(() -> SearchOpts.builder().context(0, -1).build())
        .hasMessage("contextAfter must be a non-negative safe integer at most 20");
    SearchOpts widest = SearchOpts.builder().context(cap, cap).build();
    assertThat(widest.contextBefore()).isEqualTo(cap);
    assertThat(widest.contextAfter()).isEqualTo(cap);
  }

  private static String message(Runnable check) {
    try {
      check.run();
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    throw new AssertionError("the check accepted the value");
  }
}
