package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Outcome.ModeResult;
import dev.prismindex.benchmarks.quality.Ranking.Metrics;
import dev.prismindex.repository.SearchMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** The markdown tables of the quality report, computed from per-query {@link Outcome}s. */
final class Tables {

  /**
   * The targets (issue 14), each with what it measures, its threshold, and whether the
   * figure must reach the threshold (at least) or stay under it (at most).
   */
  enum Target {
    NL_MRR("NL hybrid MRR@10", 0.40, true),
    NL_R10("NL hybrid R@10", 0.65, true),
    NL_GAIN("hybrid MRR@10 over best single mode", 0.05, true),
    WRONG_PLACE("right file, outside target at rank 1", 0.05, false),
    NON_LIBRARY("test/example/bench/doc at rank 1", 0.05, false),
    IDENTIFIER_R1("identifier R@1", 0.97, true),
    PHRASE_MRR("name phrase MRR@10", 0.90, true);

    final String what;
    final double threshold;
    final boolean atLeast;

    Target(String what, double threshold, boolean atLeast) {
      this.what = what;
      this.threshold = threshold;
      this.atLeast = atLeast;
    }

    boolean met(double value) {
      return atLeast ? value >= threshold - 1e-9 : value <= threshold + 1e-9;
    }

    /** {@code what value (target >= threshold): met}. */
    String item(double value) {
      return String.format(Locale.ROOT, "%s %.3f (target %s %.2f): %s", what, value,
          atLeast ? ">=" : "<=", threshold, Tables.met(met(value)));
    }
  }

  private final StringBuilder out;

  Tables(StringBuilder out) {
    this.out = out;
  }

  private void line(String s) {
    out.append(s).append('\n');
  }

  /** Ranks of {@code outs} under {@code mode}. */
  static List<Integer> ranks(List<Outcome> outs, SearchMode mode) {
    return outs.stream().map(o -> o.rank(mode)).toList();
  }

  static double share(List<Outcome> outs, Predicate<Outcome> p) {
    return outs.isEmpty() ? 0 : (double) outs.stream().filter(p).count() / outs.size();
  }

  private static double wrongPlace(List<Outcome> outs, SearchMode m) {
    return share(outs, o -> o.modes().containsKey(m) && o.modes().get(m).wrongPlace(o.target()));
  }

  private static double nonLibrary(List<Outcome> outs, SearchMode m) {
    return share(outs, o -> o.modes().containsKey(m) && o.modes().get(m).nonLibrary());
  }

  /**
   * One row per mode (and the grep baseline, file level): MRR@10, R@1/5/10, the shares of
   * queries whose rank-1 hit is in the right file but outside the target and in a non-library
   * file, and on the hybrid row the "either engine" recall.
   */
  void queryTable(List<Outcome> outs, List<SearchMode> modes, String first) {
    line("| " + first + " | queries | MRR@10 | R@1 | R@5 | R@10 | rank 1 in right file, outside"
        + " target | rank 1 in test/example/bench/doc | either engine R@10 |");
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (SearchMode m : modes) {
      Metrics c = Metrics.of(ranks(outs, m));
      String either = m == SearchMode.HYBRID && modes.contains(SearchMode.SEMANTIC)
          ? pct(share(outs, Outcome::eitherEngine)) : "";
      line(String.format(Locale.ROOT, "| %s | %d | %.3f | %.2f | %.2f | %.2f | %s | %s | %s |",
          name(m), outs.size(), c.mrr(), c.r1(), c.r5(), c.r10(), pct(wrongPlace(outs, m)),
          pct(nonLibrary(outs, m)), either));
    }
    Metrics g = Metrics.of(outs.stream().map(Outcome::grepFileRank).toList());
    line(String.format(Locale.ROOT, "| grep -c baseline (file level) | %d | %.3f | %.2f | %.2f |"
        + " %.2f | — | — | |", outs.size(), g.mrr(), g.r1(), g.r5(), g.r10()));
    line("");
  }

  /** Navigation: a {@link #queryTable} per query form, identifier first. */
  void navigationTables(List<Outcome> outs, List<SearchMode> modes) {
    for (String set : List.of("nav-identifier", "nav-phrase")) {
      List<Outcome> form = outs.stream().filter(o -> o.set().equals(set)).toList();
      line("Query form: " + (set.equals("nav-identifier") ? "**identifier** (target R@1"
          + " >= " + Target.IDENTIFIER_R1.threshold + ")" : "**name phrase** (target MRR@10 >= "
          + Target.PHRASE_MRR.threshold + ")")
          + ".");
      line("");
      queryTable(form, modes, "Mode");
    }
  }

  /** The per-corpus summary row of hybrid natural language (or lexical when not hybrid). */
  void corpusSummaryHeader() {
    line("| corpus | language | NL queries | mode | MRR@10 | R@1 | R@5 | R@10 | right file, outside"
        + " | test/example at 1 | either engine R@10 | identifier R@1 | phrase MRR@10 |");
    line("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  }

  void corpusSummaryRow(String corpus, String language, List<Outcome> nl, List<Outcome> nav,
      SearchMode m, boolean semantic) {
    Metrics c = Metrics.of(ranks(nl, m));
    Metrics id = Metrics.of(ranks(nav.stream().filter(o -> o.set().equals("nav-identifier"))
        .toList(), m));
    Metrics ph = Metrics.of(ranks(nav.stream().filter(o -> o.set().equals("nav-phrase"))
        .toList(), m));
    line(String.format(Locale.ROOT, "| %s | %s | %d | %s | %.3f | %.2f | %.2f | %.2f | %s | %s |"
        + " %s | %.2f | %.3f |", corpus, language, nl.size(), name(m), c.mrr(), c.r1(), c.r5(),
        c.r10(), pct(wrongPlace(nl, m)), pct(nonLibrary(nl, m)),
        semantic ? pct(share(nl, Outcome::eitherEngine)) : "", id.r1(), ph.mrr()));
  }

  /** One line per issue target: the figure, the target, met or not. */
  void targets(List<Outcome> nl, List<Outcome> nav, boolean semantic) {
    SearchMode h = semantic ? SearchMode.HYBRID : SearchMode.LEXICAL;
    Metrics hy = Metrics.of(ranks(nl, h));
    List<String> items = new ArrayList<>();
    items.add(Target.NL_MRR.item(hy.mrr()));
    items.add(Target.NL_R10.item(hy.r10()));
    if (semantic) {
      double gain = hy.mrr() - Math.max(Metrics.of(ranks(nl, SearchMode.LEXICAL)).mrr(),
          Metrics.of(ranks(nl, SearchMode.SEMANTIC)).mrr());
      items.add(String.format(Locale.ROOT, "%s %+.3f (target >= +%.2f): %s", Target.NL_GAIN.what,
          gain, Target.NL_GAIN.threshold, met(Target.NL_GAIN.met(gain))));
    }
    items.add(Target.WRONG_PLACE.item(wrongPlace(nl, h)));
    items.add(Target.NON_LIBRARY.item(nonLibrary(nl, h)));
    items.add(Target.IDENTIFIER_R1.item(Metrics.of(ranks(nav.stream()
        .filter(o -> o.set().equals("nav-identifier")).toList(), h)).r1()));
    items.add(Target.PHRASE_MRR.item(Metrics.of(ranks(nav.stream()
        .filter(o -> o.set().equals("nav-phrase")).toList(), h)).mrr()));
    if (semantic) {
      double either = share(nl, Outcome::eitherEngine);
      items.add(String.format(Locale.ROOT, "hybrid R@10 %.3f vs either engine %.3f: %s",
          hy.r10(), either, met(hy.r10() >= either - 1e-9)));
    }
    line("**Targets** (" + name(h) + "): " + String.join("; ", items) + ".");
    line("");
  }

  private static String met(boolean ok) {
    return ok ? "met" : "**not met**";
  }

  static String name(SearchMode m) {
    return m.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The header (two lines) of a table comparing each corpus alone with {@code together} (the
   * workspace, the combined index): per mode, MRR@10 alone, together and the difference.
   */
  static String comparisonHeader(String together, List<SearchMode> modes) {
    return "| corpus | queries | " + String.join(" | ", modes.stream().map(m -> name(m)
        + " alone | " + name(m) + " " + together + " | difference").toList()) + " |\n"
        + "| --- | ---: |" + " ---: | ---: | ---: |".repeat(modes.size());
  }

  /** One row of {@link #comparisonHeader}'s table: {@code alone} and {@code together}'s MRR@10. */
  static String comparisonRow(String name, List<Outcome> alone, List<Outcome> together,
      List<SearchMode> modes) {
    StringBuilder row = new StringBuilder("| " + name + " | " + alone.size() + " |");
    for (SearchMode m : modes) {
      double a = Ranking.Metrics.of(ranks(alone, m)).mrr();
      double b = Ranking.Metrics.of(ranks(together, m)).mrr();
      row.append(String.format(Locale.ROOT, " %.3f | %.3f | %+.3f |", a, b, b - a));
    }
    return row.toString();
  }

  static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f %%", share * 100);
  }

  /** The rank-1 hit of {@code o} under {@code m} as {@code path:line}, or {@code -}. */
  static String top1(Outcome o, SearchMode m) {
    ModeResult r = o.modes().get(m);
    return r == null ? "-" : r.top1();
  }
}
