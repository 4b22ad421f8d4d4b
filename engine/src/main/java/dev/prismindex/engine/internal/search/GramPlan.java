package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.engine.spi.GramQuery;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The regex planner's algebra ({@link RegexPlanner}), as codesearch's {@code index.Query}: the
 * files a regular expression's matches can lie in hold every gram of an AND and at least one branch
 * of an OR. {@link #ALL} asks nothing (every file), {@link #NONE} allows no file. Trigrams are
 * lower-cased UTF-16 units, as the index holds them; a common trigram ({@link Grams#isCommon}) is
 * not indexed, so it is never required. Immutable; a store is asked the plan as the SPI's
 * {@link GramQuery} ({@link #toQuery}).
 */
final class GramPlan {

  enum Op {
    ALL, NONE, AND, OR
  }

  static final GramPlan ALL = new GramPlan(Op.ALL, List.of(), List.of());
  static final GramPlan NONE = new GramPlan(Op.NONE, List.of(), List.of());

  /** The most trigrams a query holds; a larger one is replaced by {@link #ALL} (still sound). */
  static final int MAX_GRAMS = 2048;

  final Op op;
  /** The trigrams of an AND or OR, sorted. */
  final List<String> grams;
  final List<GramPlan> subs;

  private GramPlan(Op op, List<String> grams, List<GramPlan> subs) {
    this.op = op;
    this.grams = List.copyOf(grams);
    this.subs = List.copyOf(subs);
  }

  /** The trigrams of this query, counted with repetition across its branches. */
  int size() {
    int n = grams.size();
    for (GramPlan q : subs) {
      n += q.size();
    }
    return n;
  }

  static GramPlan and(GramPlan a, GramPlan b) {
    return combine(a, b, Op.AND);
  }

  static GramPlan or(GramPlan a, GramPlan b) {
    return combine(a, b, Op.OR);
  }

  private static GramPlan combine(GramPlan a, GramPlan b, Op op) {
    if (op == Op.AND) {
      if (a.op == Op.NONE || b.op == Op.NONE) {
        return NONE;
      }
      if (a.op == Op.ALL) {
        return b;
      }
      if (b.op == Op.ALL) {
        return a;
      }
    } else {
      if (a.op == Op.ALL || b.op == Op.ALL) {
        return ALL;
      }
      if (a.op == Op.NONE) {
        return b;
      }
      if (b.op == Op.NONE) {
        return a;
      }
    }
    if (a.equals(b)) {
      return a;
    }
    TreeSet<String> grams = new TreeSet<>();
    List<GramPlan> subs = new ArrayList<>();
    for (GramPlan q : List.of(a, b)) {
      if (q.op == op || q.subs.isEmpty() && q.grams.size() == 1) {
        grams.addAll(q.grams);
        for (GramPlan s : q.subs) {
          if (!subs.contains(s)) {
            subs.add(s);
          }
        }
      } else if (!subs.contains(q)) {
        subs.add(q);
      }
    }
    GramPlan out = new GramPlan(op, new ArrayList<>(grams), subs);
    return out.size() > MAX_GRAMS ? ALL : out;
  }

  /**
   * {@code q} AND (for some string of {@code strings}, every trigram of it): what a match holding
   * one of {@code strings} implies. A string shorter than a trigram, or made of common trigrams
   * only, implies nothing, so then nothing is added.
   */
  static GramPlan andTrigrams(GramPlan q, Collection<String> strings) {
    if (strings.isEmpty()) {
      return q;
    }
    GramPlan any = NONE;
    for (String s : strings) {
      TreeSet<String> grams = new TreeSet<>();
      for (int i = 0; i + Grams.N <= s.length(); i++) {
        String g = s.substring(i, i + Grams.N);
        if (!Grams.isCommon(g)) {
          grams.add(g);
        }
      }
      if (grams.isEmpty()) {
        return q; // this string needs no gram: the OR holds everywhere
      }
      GramPlan all = grams.size() == 1 ? new GramPlan(Op.AND, List.copyOf(grams), List.of())
          : new GramPlan(Op.AND, new ArrayList<>(grams), List.of());
      any = or(any, all);
    }
    return and(q, any);
  }

  /**
   * This plan as the store SPI's query ({@link dev.prismindex.engine.spi.StoreReader#files}), or
   * null for {@link #NONE} (no file can match: the store is not asked).
   */
  @Nullable GramQuery toQuery() {
    return switch (op) {
      case ALL -> GramQuery.all();
      case NONE -> null;
      case AND, OR -> {
        List<GramQuery> parts = new ArrayList<>(grams.size() + subs.size());
        for (String g : grams) {
          parts.add(new GramQuery.Gram(g));
        }
        for (GramPlan sub : subs) {
          GramQuery q = sub.toQuery();
          if (q == null && op == Op.AND) {
            yield null;
          }
          if (q instanceof GramQuery.All && op == Op.OR) {
            yield q;
          }
          if (q != null && !(q instanceof GramQuery.All)) {
            parts.add(q);
          }
        }
        if (parts.isEmpty()) {
          yield op == Op.AND ? GramQuery.all() : null;
        }
        yield parts.size() == 1 ? parts.get(0)
            : op == Op.AND ? new GramQuery.And(parts) : new GramQuery.Or(parts);
      }
    };
  }

  /** Whether a file holding exactly {@code grams} (its indexed trigrams) satisfies the query. */
  boolean matches(java.util.Set<String> grams) {
    return switch (op) {
      case ALL -> true;
      case NONE -> false;
      case AND -> grams.containsAll(this.grams) && subs.stream().allMatch(q -> q.matches(grams));
      case OR -> this.grams.stream().anyMatch(grams::contains)
          || subs.stream().anyMatch(q -> q.matches(grams));
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GramPlan q && q.op == op && q.grams.equals(grams) && q.subs.equals(subs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(op, grams, subs);
  }

  @Override
  public String toString() {
    if (op == Op.ALL) {
      return "+";
    }
    if (op == Op.NONE) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    for (String g : grams) {
      parts.add('"' + g + '"');
    }
    for (GramPlan s : subs) {
      parts.add(s.op == op ? s.toString() : "(" + s + ")");
    }
    return String.join(op == Op.AND ? " " : "|", parts);
  }
}
