package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Outcome.ModeResult;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.Ranking.GrepBaseline;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.CodeSearch;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Asks an index the query sets of one corpus, mode by mode, and times warm hybrid queries. */
final class Evaluation {

  private final String corpus;
  private final CodeSearch index;
  private final List<SearchMode> modes;
  private final Fusion fusion;
  private final double auxiliaryWeight;
  private final @Nullable GrepBaseline grep;
  private final @Nullable String repo;

  Evaluation(String corpus, CodeSearch index, List<SearchMode> modes, Fusion fusion,
      double auxiliaryWeight, GrepBaseline grep) {
    this(corpus, index, modes, fusion, auxiliaryWeight, grep, null);
  }

  /**
   * @param grep the grep baseline, or null for none (its rank is then 0)
   * @param repo when {@code index} is a workspace, the repository the corpus's targets lie in (a
   *     hit of another repository finds nothing); null for one repository
   */
  Evaluation(String corpus, CodeSearch index, List<SearchMode> modes, Fusion fusion,
      double auxiliaryWeight, @Nullable GrepBaseline grep, @Nullable String repo) {
    this.corpus = corpus;
    this.index = index;
    this.modes = List.copyOf(modes);
    this.fusion = fusion;
    this.auxiliaryWeight = auxiliaryWeight;
    this.grep = grep;
    this.repo = repo;
  }

  /**
   * Median and 95th percentile of warm query latency, in milliseconds.
   *
   * @param medianMs the median
   * @param p95Ms the 95th percentile (nearest rank)
   */
  record Latency(double medianMs, double p95Ms) {

    static Latency of(long[] nanos) {
      if (nanos.length == 0) {
        return new Latency(0, 0);
      }
      long[] s = nanos.clone();
      Arrays.sort(s);
      double median = s.length % 2 == 1 ? s[s.length / 2]
          : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
      int p95 = (int) Math.ceil(0.95 * s.length) - 1;
      return new Latency(median / 1e6, s[Math.max(0, p95)] / 1e6);
    }
  }

  List<Outcome> naturalLanguage(List<NlQuery> queries) throws IOException {
    List<Outcome> out = new ArrayList<>();
    for (NlQuery q : queries) {
      out.add(ask("nl", q.query(), q.target()));
    }
    return out;
  }

  /** Each definition asked as its identifier and as its name phrase. */
  List<Outcome> navigation(List<NavQuery> queries) throws IOException {
    List<Outcome> out = new ArrayList<>();
    for (NavQuery q : queries) {
      out.add(ask("nav-identifier", q.identifier(), q.target()));
    }
    for (NavQuery q : queries) {
      out.add(ask("nav-phrase", q.phrase(), q.target()));
    }
    return out;
  }

  private Outcome ask(String set, String query, Definition target) throws IOException {
    Map<SearchMode, ModeResult> results = new EnumMap<>(SearchMode.class);
    for (SearchMode m : modes) {
      List<Hit> hits = search(query, m);
      Hit top = hits.isEmpty() ? null : hits.get(0);
      results.put(m, new ModeResult(GroundTruth.rank(hits, target, repo),
          top == null ? null : top.path(), top == null ? 0 : top.line()));
    }
    List<String> files = grep == null ? List.of() : grep.rank(query);
    int g = files.indexOf(target.path());
    return new Outcome(corpus, set, query, target, results,
        g < 0 || g >= Ranking.DEPTH ? 0 : g + 1);
  }

  private List<Hit> search(String query, SearchMode mode) throws IOException {
    return index.search(query, new SearchOpts(Ranking.DEPTH, mode, null, fusion, false,
        auxiliaryWeight));
  }

  /**
   * Warm latency of {@code mode}: one untimed pass over the queries, then a timed one.
   */
  Latency latency(List<String> queries, SearchMode mode) throws IOException {
    for (String q : queries) {
      search(q, mode);
    }
    long[] nanos = new long[queries.size()];
    for (int i = 0; i < nanos.length; i++) {
      long t0 = System.nanoTime();
      search(queries.get(i), mode);
      nanos[i] = System.nanoTime() - t0;
    }
    return Latency.of(nanos);
  }
}
