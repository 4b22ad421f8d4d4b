package dev.prismindex.cli.command;

import dev.prismindex.cli.output.Results.Changes;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.State;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.output.Results.Tier;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.SemanticTier;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.Staleness;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The CLI's result records of {@code index} and {@code status} ({@link IndexSummary},
 * {@link StatusReport}) made from the engine's counters and state: names in lower case, the
 * semantic coverage only where the index has or could have vectors, and a stale index judged by
 * the request's {@code --max-refresh-files}. Translates only; the engine is asked elsewhere.
 */
final class EngineResults {
  private EngineResults() {}

  /**
   * The summary of an index run.
   *
   * @param unreadable why the index's commit could not be read, when the run rebuilt it from
   *     nothing for that reason (null otherwise: the run's own repair note applies)
   */
  static IndexSummary summary(Target target, IndexRunStats s, EngineStatus st,
      @Nullable String unreadable) {
    Map<String, Integer> skipped = reasons(s.skipped());
    return new IndexSummary(target.root(), target.home(), s.filesSeen(), s.hashed(), s.added(),
        s.changed(), s.deleted(), s.unchanged(), skipped, s.chunksWritten(), s.chunksEmbedded(),
        s.chunksReused(), s.committed(), s.sourceRevision(), st.files(), st.chunks(),
        st.embedderId(), coverage(st), st.semantic().name().toLowerCase(Locale.ROOT),
        st.semanticMessage(), st.sizeOnDiskBytes(), s.durationMs(),
        unreadable != null ? unreadable : s.repaired());
  }

  /**
   * The status of a readable index: ready, behind (at most {@code max} files changed: a search
   * catches up) or outdated (more: a search is refused).
   *
   * @param model the model this process searches the index with
   */
  static StatusReport report(Target t, EngineStatus s, Staleness st, int max,
      @Nullable String model) {
    Changes changes = new Changes(st.added(), st.modified(), st.deleted(), st.durationMs(),
        reasons(st.skipped()));
    State state = changes.total() == 0 ? State.READY
        : changes.total() <= max ? State.BEHIND : State.OUTDATED;
    String problem = state == State.OUTDATED ? "index is stale: " + changes.total()
        + " files changed since the last index run (more than --max-refresh-files " + max
        + "); run `prism-index index`" : null;
    return new StatusReport(state, t.root(), t.home(), problem, s.files(), s.chunks(),
        coverage(s), s.coverage().chunksEmbedded(), s.semantic().name().toLowerCase(Locale.ROOT),
        s.semanticMessage(), s.embedderId(), model, s.sourceRevision(), s.updatedAt(),
        s.sizeOnDiskBytes(), changes, max, s.formatVersion(), s.analyzerVersion(), null,
        tiers(s), null, List.of());
  }

  /** The share of chunks with a vector, when the index has vectors or could have them. */
  private static @Nullable Double coverage(EngineStatus s) {
    return s.embedderId() != null || s.semantic() == SemanticState.AVAILABLE
        ? s.coverage().ratio() : null;
  }

  /** The index's embedding tiers, as {@code status} prints them. */
  private static List<Tier> tiers(EngineStatus s) {
    List<Tier> out = new ArrayList<>();
    for (SemanticTier t : s.tiers()) {
      out.add(new Tier(t.model(), t.kind() == null ? null
          : t.kind().name().toLowerCase(Locale.ROOT), t.dimension(), t.chunksCovered(),
          t.chunks(), t.state().name().toLowerCase(Locale.ROOT)));
    }
    return out;
  }

  /** Skip counts by lower-case reason name, as {@code index} and {@code status} print them. */
  private static Map<String, Integer> reasons(Map<SkipReason, Integer> skipped) {
    Map<String, Integer> out = new LinkedHashMap<>();
    skipped.forEach((reason, n) -> out.put(reason.name().toLowerCase(Locale.ROOT), n));
    return out;
  }

  /** The status of an index that cannot be read: {@code message} says why and what to do. */
  static StatusReport problem(State state, Target t, String message,
      @Nullable String available, int max) {
    return new StatusReport(state, t.root(), t.home(), message, 0, 0, null, 0, null, null, null,
        available, null, null, 0, null, max, null, null, null);
  }
}
