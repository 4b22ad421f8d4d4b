package dev.prismindex.engine;

import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.semantic.VectorCatalog;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.repository.AbortSignal;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What the tests of this package read of an open {@link HybridIndex} beyond its public API. */
final class IndexInternals {

  private IndexInternals() {}

  /** Literal matches as the literal searcher returns them (for tests comparing with the scanner). */
  static LiteralResult literalSearch(HybridIndex index, String query, boolean caseSensitive,
      @Nullable String scope, int maxMatches, boolean onePerFile, AbortSignal signal)
      throws IOException {
    IndexParts parts = index.parts();
    parts.ensureOpen();
    return parts.planner().literalMatches(query, caseSensitive, scope, maxMatches, onePerFile,
        signal);
  }

  /** Coverage and vector counts computed from the last commit's documents. */
  static VectorCatalog.Stats vectorStats(HybridIndex index) throws IOException {
    return Objects.requireNonNull(index.parts().local(), "a plugged store").withSearcher(
        s -> VectorCatalog.stats(s.getIndexReader()), new VectorCatalog.Stats(0, 0, 0, 0));
  }

  /** The manifest of the last commit. */
  static Map<String, FileEntry> manifest(HybridIndex index) throws IOException {
    return index.parts().ctx().store().manifest();
  }

  /** The metadata of the last commit. */
  static Map<String, String> commitData(HybridIndex index) throws IOException {
    CommitRecord record = index.parts().ctx().store().record();
    return record == null ? Map.of() : record.values();
  }
}
