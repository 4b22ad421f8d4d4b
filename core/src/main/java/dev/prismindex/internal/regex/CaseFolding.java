package dev.prismindex.internal.regex;

import java.util.Arrays;

/**
 * Simple case folding, as ripgrep's case-insensitive matching uses it: every code point belongs to
 * an orbit of the code points it folds together with ({@code k}, {@code K} and the Kelvin sign
 * U+212A; {@code s}, {@code S} and the long s U+017F; {@code σ}, {@code ς} and {@code Σ}). Built
 * once from the JDK's one-to-one case mappings (lower, upper and title case of each code point,
 * joined transitively), leaving out the Turkic dotted and dotless i (U+0130, U+0131), which simple
 * folding does not join with {@code i}.
 */
final class CaseFolding {

  private CaseFolding() {}

  /** The code points with an orbit of two or more, ascending. */
  private static final int[] MEMBERS;
  /** For each of {@link #MEMBERS}, the next code point of its orbit (a cycle). */
  private static final int[] NEXT;

  static {
    int max = CodePointSet.MAX + 1;
    // Union-find over the code points that have a case mapping.
    java.util.Map<Integer, Integer> root = new java.util.HashMap<>();
    for (int cp = 0; cp < max; cp++) {
      if (cp == 0x130 || cp == 0x131) {
        continue;
      }
      int[] mapped = {Character.toLowerCase(cp), Character.toUpperCase(cp),
          Character.toTitleCase(cp)};
      for (int m : mapped) {
        if (m != cp && m != 0x130 && m != 0x131) {
          union(root, cp, m);
        }
      }
    }
    java.util.Map<Integer, java.util.List<Integer>> orbits = new java.util.TreeMap<>();
    for (Integer cp : root.keySet()) {
      orbits.computeIfAbsent(find(root, cp), k -> new java.util.ArrayList<>()).add(cp);
    }
    int count = 0;
    for (java.util.List<Integer> o : orbits.values()) {
      count += o.size();
    }
    int[] members = new int[count];
    int[] next = new int[count];
    java.util.Map<Integer, Integer> nextOf = new java.util.HashMap<>();
    for (java.util.List<Integer> o : orbits.values()) {
      o.sort(null);
      for (int i = 0; i < o.size(); i++) {
        nextOf.put(o.get(i), o.get((i + 1) % o.size()));
      }
    }
    int i = 0;
    for (Integer cp : new java.util.TreeSet<>(nextOf.keySet())) {
      members[i] = cp;
      next[i] = nextOf.get(cp);
      i++;
    }
    MEMBERS = members;
    NEXT = next;
  }

  private static int find(java.util.Map<Integer, Integer> root, int cp) {
    int r = cp;
    while (true) {
      Integer p = root.get(r);
      if (p == null || p == r) {
        break;
      }
      r = p;
    }
    return r;
  }

  private static void union(java.util.Map<Integer, Integer> root, int a, int b) {
    root.putIfAbsent(a, a);
    root.putIfAbsent(b, b);
    int ra = find(root, a);
    int rb = find(root, b);
    if (ra != rb) {
      root.put(Math.max(ra, rb), Math.min(ra, rb));
    }
  }

  /** The next code point of {@code cp}'s orbit, or {@code cp} itself when it folds with none. */
  static int next(int cp) {
    int i = Arrays.binarySearch(MEMBERS, cp);
    return i < 0 ? cp : NEXT[i];
  }

  /** Whether {@code cp} folds together with another code point. */
  static boolean folds(int cp) {
    return Arrays.binarySearch(MEMBERS, cp) >= 0;
  }

  /** The orbit of {@code cp} (itself alone when it folds with none). */
  static CodePointSet orbit(int cp) {
    int[] pairs = new int[8];
    int n = 0;
    int c = cp;
    do {
      if (n + 2 > pairs.length) {
        pairs = Arrays.copyOf(pairs, pairs.length * 2);
      }
      pairs[n++] = c;
      pairs[n++] = c;
      c = next(c);
    } while (c != cp);
    return CodePointSet.normalise(pairs, n);
  }

  /** {@code set} with the whole orbit of each of its code points. */
  static CodePointSet close(CodePointSet set) {
    int[] pairs = new int[16];
    int n = 0;
    for (int r = 0; r < set.rangeCount(); r++) {
      int lo = set.lo(r);
      int hi = set.hi(r);
      int i = Arrays.binarySearch(MEMBERS, lo);
      if (i < 0) {
        i = -i - 1;
      }
      for (; i < MEMBERS.length && MEMBERS[i] <= hi; i++) {
        int start = MEMBERS[i];
        for (int c = NEXT[i]; c != start; c = next(c)) {
          if (n + 2 > pairs.length) {
            pairs = Arrays.copyOf(pairs, pairs.length * 2);
          }
          pairs[n++] = c;
          pairs[n++] = c;
        }
      }
    }
    if (n == 0) {
      return set;
    }
    return set.union(CodePointSet.normalise(pairs, n));
  }
}
