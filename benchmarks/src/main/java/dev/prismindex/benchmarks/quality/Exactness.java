package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.QuerySets.ExactQuery;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.index.IndexedRepositoryOptions;
import dev.prismindex.index.IndexLimits;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The exactness section: recall and precision of {@code literal} and {@code indexed_literal}
 * against a full scan, per literal kind, file level.
 */
final class Exactness {

  private final StringBuilder report;

  Exactness(StringBuilder report) {
    this.report = report;
  }

  private void line(String s) {
    report.append(s).append('\n');
  }

  void run(HybridIndex index, Path root, List<ExactQuery> queries,
      Map<String, List<String>> lines) {
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(index,
                RepositoryOperations.local(RepositoryLimits.defaults()))
            .allowedModes(EnumSet.allOf(SearchMode.class))
            .limits(IndexLimits.builder()
                .staleMaxAgeMs(IndexLimits.HARD_MAX_INDEX_STALE_MAX_AGE_MS).build())
            .build());
    Map<String, long[]> byKind = new LinkedHashMap<>(); // kind -> counters
    List<String> misses = new ArrayList<>();
    for (ExactQuery q : queries) {
      Set<String> truth = new TreeSet<>(QuerySets.truth(q.literal(), lines));
      long[] c = byKind.computeIfAbsent(q.kind(), k -> new long[10]);
      c[0]++;
      c[1] += truth.size();
      int j = 2;
      for (SearchMode mode : List.of(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL)) {
        RepositorySearchResult r = ops.search(RepositorySearchRequest.builder(root, q.literal())
            .mode(mode).caseSensitive(true).build());
        Set<String> got = new TreeSet<>();
        long pathOnly = 0;
        for (RepositorySearchMatch m : r.matches()) {
          if (m.score() != null && m.score() < 1.0) {
            pathOnly++; // an indexed_literal match of the path alone: not a content match
          } else {
            got.add(m.path());
          }
        }
        long tp = got.stream().filter(truth::contains).count();
        c[j] += tp;
        c[j + 1] += got.size() - tp;
        c[j + 2] += truth.size() - tp;
        if (got.equals(truth) && !r.truncated()) {
          c[j + 3]++;
        } else {
          misses.add(mode.wireName() + " `" + q.literal() + "`: truth " + truth.size()
              + " files, got " + got.size() + (r.truncated() ? " (truncated)" : "")
              + (pathOnly > 0 ? ", " + pathOnly + " path-only" : ""));
        }
        j += 4;
      }
    }
    line("#### Exactness (" + queries.size() + " literals, case-sensitive, file level; truth ="
        + " a full scan)");
    line("");
    line("| Kind | Literals | Truth files | `literal` recall | precision | exact sets"
        + " | `indexed_literal` recall | precision | exact sets |");
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    long[] all = new long[10];
    for (Map.Entry<String, long[]> e : byKind.entrySet()) {
      exactRow(e.getKey(), e.getValue());
      for (int i = 0; i < all.length; i++) {
        all[i] += e.getValue()[i];
      }
    }
    exactRow("**all**", all);
    line("");
    if (!misses.isEmpty()) {
      line("Differences from the truth:");
      line("");
      for (String m : misses) {
        line("* " + m);
      }
      line("");
    }
  }

  private void exactRow(String kind, long[] c) {
    line(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %d/%d | %s | %s | %d/%d |", kind,
        c[0], c[1], ratio(c[2], c[2] + c[4]), ratio(c[2], c[2] + c[3]), c[5], c[0],
        ratio(c[6], c[6] + c[8]), ratio(c[6], c[6] + c[7]), c[9], c[0]));
  }

  private static String ratio(long num, long den) {
    return den == 0 ? "1.000" : String.format(Locale.ROOT, "%.3f", (double) num / den);
  }
}
