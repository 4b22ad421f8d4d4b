package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.internal.regex.CodePointSet;
import dev.prismindex.internal.regex.Node;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Turns a regular expression's syntax tree (core's {@link Node}, the tree the matcher runs) into
 * the {@link GramPlan} every file holding a match satisfies, by Russ Cox's codesearch analysis
 * ({@code index/regexp.go}): for each node, whether it can match empty, the exact set of strings
 * it matches when that set is small, else the sets of their possible prefixes and suffixes, and a
 * query that any match implies; concatenation crosses the sets, alternation unites them, and
 * trigrams are taken from exact strings and from suffix-prefix pairs across a concatenation.
 *
 * <p>Adapted to this gram index: strings are of lower-cased UTF-16 units, as the index lower-cases
 * each line with {@code toLowerCase(Locale.ROOT)} before taking its trigrams, so a character stands
 * for the lower case of each code point its class holds (the capital sigma for both small sigmas, a
 * final one being context-dependent; the dotted capital I for its two units); a case-insensitive
 * pattern's classes already hold every case of each letter. A class of more than
 * {@value #MAX_CLASS} code points, or one holding a CR (the index drops the CR that ends a line) or
 * U+FFFD (decoders differ on bad bytes), is any character. Common trigrams are never required
 * ({@link GramPlan#andTrigrams}). The result can only be weaker than the truth: a file it rules
 * out holds no match.
 */
final class RegexPlanner {

  /** Classes larger than this are treated as any character. */
  static final int MAX_CLASS = 100;
  /** Exact sets are cut into prefixes and suffixes beyond this many strings. */
  static final int MAX_EXACT = 7;
  /** Prefix and suffix sets are shortened beyond this many strings. */
  static final int MAX_SET = 20;

  private RegexPlanner() {}

  /** The query every file holding a match of {@code tree} satisfies. */
  static GramPlan plan(Node tree) {
    Info info = analyze(tree);
    info.simplify(true);
    info.addExact();
    return info.match;
  }

  /** What is known about the strings a node matches (codesearch's {@code regexpInfo}). */
  private static final class Info {
    boolean canEmpty;
    /** The exact strings matched, or null when unknown (then prefix and suffix are set). */
    TreeSet<String> exact;
    TreeSet<String> prefix = new TreeSet<>();
    TreeSet<String> suffix = new TreeSet<>(SUFFIX_ORDER);
    GramPlan match = GramPlan.ALL;

    static Info anyMatch() {
      Info i = new Info();
      i.canEmpty = true;
      i.prefix.add("");
      i.suffix.add("");
      return i;
    }

    static Info anyChar() {
      Info i = new Info();
      i.prefix.add("");
      i.suffix.add("");
      return i;
    }

    static Info noMatch() {
      Info i = new Info();
      i.match = GramPlan.NONE;
      return i;
    }

    static Info emptyString() {
      Info i = new Info();
      i.canEmpty = true;
      i.exact = new TreeSet<>(List.of(""));
      return i;
    }

    void addExact() {
      if (exact != null) {
        match = GramPlan.andTrigrams(match, exact);
      }
    }

    /** Moves an exact set that has grown too large into prefixes, suffixes and the query. */
    void simplify(boolean force) {
      if (exact != null && (exact.size() > MAX_EXACT || minLen(exact) >= Grams.N && force
          || minLen(exact) >= Grams.N + 1)) {
        addExact();
        for (String s : exact) {
          int n = s.length();
          if (n < Grams.N) {
            prefix.add(s);
            suffix.add(s);
          } else {
            prefix.add(s.substring(0, Grams.N - 1));
            suffix.add(s.substring(n - Grams.N + 1));
          }
        }
        exact = null;
      }
      if (exact == null) {
        prefix = simplifySet(prefix, false);
        suffix = simplifySet(suffix, true);
      }
    }

    /** Adds a set's trigrams to the query, then shortens its strings so that it stays small. */
    private TreeSet<String> simplifySet(TreeSet<String> set, boolean isSuffix) {
      match = GramPlan.andTrigrams(match, set);
      TreeSet<String> t = set;
      for (int n = Grams.N; n == Grams.N || t.size() > MAX_SET; n--) {
        TreeSet<String> cut = isSuffix ? new TreeSet<>(SUFFIX_ORDER) : new TreeSet<>();
        for (String s : t) {
          if (s.length() >= n) {
            s = isSuffix ? s.substring(s.length() - n + 1) : s.substring(0, n - 1);
          }
          cut.add(s);
        }
        t = cut;
        if (n == 1) {
          break;
        }
      }
      // Drop a string when a shorter one of the set is its prefix (suffix): it adds nothing.
      TreeSet<String> out = isSuffix ? new TreeSet<>(SUFFIX_ORDER) : new TreeSet<>();
      String last = null;
      for (String s : t) {
        if (last == null || !(isSuffix ? s.endsWith(last) : s.startsWith(last))) {
          out.add(s);
          last = s;
        }
      }
      return out;
    }
  }

  /** Orders strings by their reversed units, so that strings sharing a suffix are adjacent. */
  private static final Comparator<String> SUFFIX_ORDER = (a, b) -> {
    for (int i = 1; i <= a.length() && i <= b.length(); i++) {
      char x = a.charAt(a.length() - i);
      char y = b.charAt(b.length() - i);
      if (x != y) {
        return Character.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  };

  private static int minLen(TreeSet<String> set) {
    int m = Integer.MAX_VALUE;
    for (String s : set) {
      m = Math.min(m, s.length());
    }
    return set.isEmpty() ? 0 : m;
  }

  private static TreeSet<String> cross(TreeSet<String> a, TreeSet<String> b, boolean isSuffix) {
    TreeSet<String> out = isSuffix ? new TreeSet<>(SUFFIX_ORDER) : new TreeSet<>();
    for (String x : a) {
      for (String y : b) {
        out.add(x + y);
      }
    }
    return out;
  }

  private static TreeSet<String> union(TreeSet<String> a, TreeSet<String> b, boolean isSuffix) {
    TreeSet<String> out = isSuffix ? new TreeSet<>(SUFFIX_ORDER) : new TreeSet<>();
    out.addAll(a);
    out.addAll(b);
    return out;
  }

  static Info analyze(Node node) {
    Info info;
    if (node instanceof Node.Empty || node instanceof Node.Assert) {
      return Info.emptyString();
    } else if (node instanceof Node.Chars c) {
      TreeSet<String> lowered = lowered(c.set());
      if (lowered == null) {
        return Info.anyChar();
      }
      if (lowered.isEmpty()) {
        return Info.noMatch();
      }
      info = new Info();
      info.exact = lowered;
    } else if (node instanceof Node.Capture c) {
      return analyze(c.item());
    } else if (node instanceof Node.Concat c) {
      info = Info.emptyString();
      for (Node item : c.items()) {
        info = concat(info, analyze(item));
      }
      return info;
    } else if (node instanceof Node.Alternate a) {
      info = Info.noMatch();
      boolean first = true;
      for (Node item : a.items()) {
        info = first ? analyze(item) : alternate(info, analyze(item));
        first = false;
      }
      return info;
    } else if (node instanceof Node.Repeat r) {
      if (r.max() == 0) {
        return Info.emptyString();
      }
      if (r.min() == 0) {
        return r.max() == 1 ? alternate(analyze(r.item()), Info.emptyString()) : Info.anyMatch();
      }
      if (r.min() == r.max() && r.min() <= 4) {
        info = Info.emptyString();
        for (int i = 0; i < r.min(); i++) {
          info = concat(info, analyze(r.item()));
        }
        return info;
      }
      // x{n,} with n >= 1, or a wider range: at least one x, so its prefixes and suffixes stay.
      info = analyze(r.item());
      if (info.exact != null) {
        info.prefix = union(new TreeSet<>(), info.exact, false);
        info.suffix = union(new TreeSet<>(SUFFIX_ORDER), info.exact, true);
        info.exact = null;
      }
    } else {
      throw new IllegalStateException("unknown node " + node);
    }
    info.simplify(false);
    return info;
  }

  /**
   * The lower-cased strings a class stands for in the index, or null when it is to be treated as
   * any character (too large, or holding a CR or U+FFFD).
   */
  static TreeSet<String> lowered(CodePointSet set) {
    if (set.size() > MAX_CLASS || set.contains('\r') || set.contains(0xFFFD)) {
      return null;
    }
    TreeSet<String> out = new TreeSet<>();
    for (int r = 0; r < set.rangeCount(); r++) {
      for (int cp = set.lo(r); cp <= set.hi(r); cp++) {
        String lower = new String(Character.toChars(cp)).toLowerCase(Locale.ROOT);
        out.add(lower);
        if (cp == 0x03A3) {
          out.add("\u03C2"); // a final capital sigma lower-cases to the final small sigma
        }
      }
    }
    return out;
  }

  private static Info concat(Info x, Info y) {
    Info xy = new Info();
    xy.match = GramPlan.and(x.match, y.match);
    if (x.exact != null && y.exact != null) {
      xy.exact = cross(x.exact, y.exact, false);
    } else {
      if (x.exact != null) {
        xy.prefix = cross(x.exact, y.prefix, false);
      } else {
        xy.prefix = x.prefix;
        if (x.canEmpty) {
          xy.prefix = union(xy.prefix, y.prefix, false);
        }
      }
      if (y.exact != null) {
        xy.suffix = cross(x.suffix, y.exact, true);
      } else {
        xy.suffix = y.suffix;
        if (y.canEmpty) {
          xy.suffix = union(xy.suffix, x.suffix, true);
        }
      }
    }
    // A suffix of x followed by a prefix of y: if every such pair is a trigram long, one of
    // them is in the text, which neither set says alone.
    if (x.exact == null && y.exact == null && x.suffix.size() <= MAX_SET
        && y.prefix.size() <= MAX_SET && minLen(x.suffix) + minLen(y.prefix) >= Grams.N) {
      xy.match = GramPlan.andTrigrams(xy.match, cross(x.suffix, y.prefix, false));
    }
    xy.canEmpty = x.canEmpty && y.canEmpty;
    xy.simplify(false);
    return xy;
  }

  private static Info alternate(Info x, Info y) {
    Info xy = new Info();
    if (x.exact != null && y.exact != null) {
      xy.exact = union(x.exact, y.exact, false);
    } else if (x.exact != null) {
      xy.prefix = union(x.exact, y.prefix, false);
      xy.suffix = union(union(new TreeSet<>(SUFFIX_ORDER), x.exact, true), y.suffix, true);
      x.addExact();
    } else if (y.exact != null) {
      xy.prefix = union(x.prefix, y.exact, false);
      xy.suffix = union(x.suffix, union(new TreeSet<>(SUFFIX_ORDER), y.exact, true), true);
      y.addExact();
    } else {
      xy.prefix = union(x.prefix, y.prefix, false);
      xy.suffix = union(x.suffix, y.suffix, true);
    }
    xy.canEmpty = x.canEmpty || y.canEmpty;
    xy.match = GramPlan.or(x.match, y.match);
    xy.simplify(false);
    return xy;
  }

  /** The strings of {@code set} as a list, for tests. */
  static List<String> list(TreeSet<String> set) {
    return new ArrayList<>(set);
  }
}
