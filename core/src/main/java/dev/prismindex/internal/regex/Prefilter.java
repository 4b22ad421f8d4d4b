package dev.prismindex.internal.regex;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The literal strings a line must contain for a pattern to match it, any one of them: a line
 * without one is skipped unread by the matcher, and finding them is a {@link String#indexOf}, which
 * the JVM runs far faster than any automaton. Taken from the syntax tree: the longest run of single
 * characters of the top-level concatenation, or one such run per branch of a top-level
 * alternation. For a case-insensitive pattern a character belongs to a run only when every member
 * of its case-fold orbit lower-cases to the same text ({@code k}, {@code K} and the Kelvin sign all
 * to {@code k}; not {@code s}, whose orbit holds the long s), and the runs are then looked for in
 * the lower-cased text, whose line breaks are the original's.
 *
 * @param literals the strings, any of which a matching line contains (lower-cased when
 *     {@code lowered})
 * @param lowered whether to look for them in the text lower-cased with {@link Locale#ROOT}
 */
public record Prefilter(List<String> literals, boolean lowered) {

  /** Runs shorter than this are not worth a search of their own. */
  static final int MIN_LENGTH = 2;
  /** A top-level alternation of more branches than this gets no prefilter. */
  static final int MAX_BRANCHES = 8;

  public Prefilter {
    literals = List.copyOf(literals);
  }

  /** The prefilter of {@code tree} (parsed case-insensitively or not), or null when it has none. */
  public static @Nullable Prefilter of(Node tree, boolean caseInsensitive) {
    List<String> out = new ArrayList<>();
    if (tree instanceof Node.Alternate a) {
      if (a.items().size() > MAX_BRANCHES) {
        return null;
      }
      for (Node branch : a.items()) {
        String run = longestRun(branch, caseInsensitive);
        if (run == null) {
          return null;
        }
        out.add(run);
      }
    } else {
      String run = longestRun(tree, caseInsensitive);
      if (run == null) {
        return null;
      }
      out.add(run);
    }
    return new Prefilter(out, caseInsensitive);
  }

  /**
   * Whether the literals are {@link #lowered} and every character of them is ASCII with only ASCII
   * in its case-fold orbit (not {@code k} nor {@code s}, whose orbits hold the Kelvin sign and the
   * long s): then a matching line holds one of them up to ASCII case, and they can be looked for
   * in the text itself, a letter as either of its cases and any other character as itself, with no
   * lower-cased copy of the text.
   */
  public boolean asciiCases() {
    if (!lowered) {
      return false;
    }
    for (String literal : literals) {
      for (int i = 0; i < literal.length(); i++) {
        char c = literal.charAt(i);
        if (c >= 128) {
          return false;
        }
        CodePointSet orbit = CaseFolding.orbit(c);
        if (orbit.hi(orbit.rangeCount() - 1) >= 128) {
          return false;
        }
      }
    }
    return true;
  }

  /** The most classes {@link #startSequence} lists. */
  static final int MAX_SEQUENCE = 8;

  /**
   * The classes of the first code points of every match of {@code tree}, in order: a match
   * starting at a position has its first code point in the first set, the next in the second, and
   * so on (so a text without such a run, {@code \d{5,}}'s five digits, holds no match). Taken from
   * the leading items of the top-level concatenation: single classes and repetitions of one with a
   * minimum, zero-width assertions skipped; after a repetition of a variable count, one class more,
   * its class or the first code points of what must follow it; empty when the pattern starts
   * otherwise.
   */
  public static List<CodePointSet> startSequence(Node tree) {
    List<Node> items = new ArrayList<>();
    flatten(tree, items);
    List<CodePointSet> out = new ArrayList<>();
    for (int at = 0; at < items.size(); at++) {
      Node item = items.get(at);
      if (out.size() >= MAX_SEQUENCE) {
        break;
      }
      if (item instanceof Node.Assert || item instanceof Node.Empty) {
        continue; // zero-width: the next code point is still the same one
      }
      if (item instanceof Node.Chars c) {
        out.add(c.set());
        continue;
      }
      if (item instanceof Node.Repeat r && unwrap(r.item()) instanceof Node.Chars c) {
        for (int i = 0; i < r.min() && out.size() < MAX_SEQUENCE; i++) {
          out.add(c.set());
        }
        if (r.max() == r.min()) {
          continue;
        }
        // After the copies it must have, one more of the class or the rest's first code point,
        // when the rest cannot be empty ([A-Z]{3,}\d: a fourth letter or the digit).
        Node rest = new Node.Concat(items.subList(at + 1, items.size()));
        if (out.size() < MAX_SEQUENCE && r.max() != 0 && !Program.Analysis.nullable(rest)) {
          out.add(c.set().union(Program.Analysis.first(rest)));
        }
      }
      break;
    }
    return List.copyOf(out);
  }

  private static Node unwrap(Node node) {
    return node instanceof Node.Capture c ? unwrap(c.item()) : node;
  }

  /** The longest run of literal characters every match of {@code node} holds, or null. */
  private static @Nullable String longestRun(Node node, boolean insensitive) {
    List<Node> items = new ArrayList<>();
    flatten(node, items);
    String best = null;
    StringBuilder run = new StringBuilder();
    for (Node item : items) {
      String lit = item instanceof Node.Chars c ? literal(c.set(), insensitive) : null;
      if (lit != null) {
        run.append(lit);
        continue;
      }
      if (item instanceof Node.Assert) {
        continue; // zero-width: the run goes on
      }
      best = longer(best, run);
      run.setLength(0);
    }
    best = longer(best, run);
    return best;
  }

  private static @Nullable String longer(@Nullable String best, StringBuilder run) {
    if (run.length() >= MIN_LENGTH && (best == null || run.length() > best.length())) {
      return run.toString();
    }
    return best;
  }

  /** The items of nested concatenations and groups, in order. */
  private static void flatten(Node node, List<Node> out) {
    if (node instanceof Node.Concat c) {
      for (Node item : c.items()) {
        flatten(item, out);
      }
    } else if (node instanceof Node.Capture c) {
      flatten(c.item(), out);
    } else {
      out.add(node);
    }
  }

  /**
   * The text a class stands for in a run: its one code point; or, case-insensitively, the lower
   * case its whole orbit shares; else null.
   */
  private static @Nullable String literal(CodePointSet set, boolean insensitive) {
    int single = set.single();
    if (single >= 0) {
      String s = new String(Character.toChars(single));
      return insensitive ? s.toLowerCase(Locale.ROOT) : s;
    }
    if (!insensitive || set.size() > 4) {
      return null;
    }
    String lower = null;
    for (int r = 0; r < set.rangeCount(); r++) {
      for (int cp = set.lo(r); cp <= set.hi(r); cp++) {
        String l = new String(Character.toChars(cp)).toLowerCase(Locale.ROOT);
        if (lower == null) {
          lower = l;
        } else if (!lower.equals(l)) {
          return null;
        }
      }
    }
    if (lower == null || !CaseFolding.orbit(set.lo(0)).equals(set)) {
      return null; // a class of several letters, not one letter's cases
    }
    return lower;
  }
}
