package dev.prismindex.benchmarks.quality;

import dev.prismindex.engine.Hit;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What counts as finding a definition (one measure, strict): a hit finds the target when it is in
 * the target's file and its reported {@code line} lies within the definition, from its header
 * (after the doc comment, which a natural-language query's corpus has blanked) to its last line. A
 * hit elsewhere in the right file, or a chunk that merely overlaps the definition, does not count.
 */
final class GroundTruth {

  private GroundTruth() {}

  /** Whether a hit at {@code path}, {@code line} finds {@code target}. */
  static boolean finds(String path, int line, Definition target) {
    return path.equals(target.path()) && target.contains(line);
  }

  /** The 1-based rank of the first hit of {@code hits} that finds {@code target}; 0 when none. */
  static int rank(List<Hit> hits, Definition target) {
    return rank(hits, target, null);
  }

  /**
   * {@link #rank(List, Definition)} when {@code target} lies in the workspace repository {@code
   * repo} (null: one repository): a hit of another repository never finds it, whatever its path.
   */
  static int rank(List<Hit> hits, Definition target, @Nullable String repo) {
    for (int i = 0; i < Math.min(hits.size(), Ranking.DEPTH); i++) {
      Hit h = hits.get(i);
      if ((repo == null || repo.equals(h.repo())) && finds(h.path(), h.line(), target)) {
        return i + 1;
      }
    }
    return 0;
  }

  /** Whether a rank-1 hit at {@code path}, {@code line} is in the target's file but outside it. */
  static boolean rightFileWrongPlace(String path, int line, Definition target) {
    return path.equals(target.path()) && !target.contains(line);
  }
}
