package dev.prismindex.benchmarks.quality;

import dev.prismindex.repository.SearchMode;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one query got: per mode, the rank of its target and the rank-1 hit; and the grep
 * baseline's file rank.
 *
 * @param corpus the corpus name
 * @param set {@code nl}, {@code nav-identifier} or {@code nav-phrase}
 * @param query the query text
 * @param target the definition that answers it
 * @param modes per mode searched, what it returned
 * @param grepFileRank the baseline's rank of the target's file (0 = not in the top 10)
 */
record Outcome(String corpus, String set, String query, Definition target,
    Map<SearchMode, ModeResult> modes, int grepFileRank) {

  Outcome {
    modes = Map.copyOf(modes);
  }

  /**
   * One mode's answer to a query.
   *
   * @param rank the 1-based rank of the first hit that finds the target (0 = not in the top 10)
   * @param top1Path the rank-1 hit's path (null when there was no hit)
   * @param top1Line the rank-1 hit's line (0 when there was no hit)
   */
  record ModeResult(int rank, @Nullable String top1Path, int top1Line) {

    /** Whether the rank-1 hit is in the target's file but outside the target. */
    boolean wrongPlace(Definition target) {
      return top1Path != null && GroundTruth.rightFileWrongPlace(top1Path, top1Line, target);
    }

    /** Whether the rank-1 hit is in a test, example, bench, doc or tool file. */
    boolean nonLibrary() {
      return top1Path != null && !LibraryPaths.isLibrary(top1Path);
    }

    /** The rank-1 hit as {@code path:line}, or {@code -}. */
    String top1() {
      return top1Path == null ? "-" : top1Path + ":" + top1Line;
    }
  }

  /** The rank under {@code mode} (0 when not found or not searched). */
  int rank(SearchMode mode) {
    ModeResult r = modes.get(mode);
    return r == null ? 0 : r.rank();
  }

  /** Whether the lexical or the semantic engine alone has the target in its top 10. */
  boolean eitherEngine() {
    return rank(SearchMode.LEXICAL) > 0 || rank(SearchMode.SEMANTIC) > 0;
  }
}
