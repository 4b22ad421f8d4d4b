package dev.prismindex.repository;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One glob in gitignore's pattern syntax, compiled once: the one glob dialect of prism-index (a
 * {@link RepositoryGlobRequest}'s pattern, the engine's {@code FileFilter} globs, the CLI's
 * {@code --glob}), hand-written so that core depends on no git library. The syntax is documented
 * once, in {@code docs/cli.md} ("Glob syntax"); in short: {@code *} and {@code ?} never match
 * {@code /}, a {@code **} segment matches any number of directories, {@code [a-c]},
 * {@code [!abc]} and {@code [[:digit:]]} are classes, a backslash escapes the next character; a
 * pattern with no {@code /} but a trailing one matches a name at any depth, one with a {@code /} is
 * anchored at the root; a trailing {@code /} matches directories only; a leading {@code !} makes
 * the glob an exclusion ({@link #negated()}). Characters are compared by code point, case
 * sensitively.
 *
 * <p>{@link #matches(String, boolean)} answers as JGit's {@code FastIgnoreRule.isMatch(path,
 * directory, true)} does for the same line (the engine's tests compare both on a table);
 * {@link #matchesFile} is the rule of a glob against a file (its path or one of its directories),
 * and {@link #selects} the rule of a list of them (the last glob that matches decides).
 */
public final class GlobMatcher {

  private static final String SYNTAX =
      " (gitignore syntax: *, ?, **, [abc], a leading / or !, a trailing /)";
  private static final int LITERAL = 0;
  private static final int ONE = 1;
  private static final int STAR = 2;
  private static final int CLASS = 3;

  private final String pattern;
  private final boolean negated;
  private final boolean directoryOnly;
  /** One entry per pattern segment; {@code null} for a {@code **} segment. */
  private final Segment[] segments;

  private GlobMatcher(String pattern, boolean negated, boolean directoryOnly,
      Segment[] segments) {
    this.pattern = pattern;
    this.negated = negated;
    this.directoryOnly = directoryOnly;
    this.segments = segments;
  }

  /**
   * Compiles one glob.
   *
   * @throws IllegalArgumentException when the glob is blank (also after a leading {@code !}), a
   *     gitignore comment ({@code #...}), or cannot be parsed: a trailing backslash, an unclosed
   *     {@code [}, a reversed range ({@code [z-a]}), an unknown class name ({@code [[:foo:]]}), a
   *     {@code /} inside a class, or a lone {@code /}; the message starts with {@code invalid glob
   *     '<glob>'} (or {@code empty glob '<glob>'})
   */
  public static GlobMatcher compile(String pattern) {
    Objects.requireNonNull(pattern, "pattern");
    if (pattern.startsWith("#")) {
      throw new IllegalArgumentException("invalid glob '" + pattern + "': a line starting with #"
          + " is a comment in gitignore syntax (write \\# for a name that starts with #)");
    }
    boolean negated = pattern.startsWith("!");
    String body = trimTrailingSpaces(negated ? pattern.substring(1) : pattern);
    if (body.isBlank()) {
      throw new IllegalArgumentException("empty glob '" + pattern + "'");
    }
    boolean directoryOnly = body.endsWith("/") && !escapedAt(body, body.length() - 1);
    while (body.endsWith("/") && !escapedAt(body, body.length() - 1)) {
      body = body.substring(0, body.length() - 1);
    }
    boolean anchored = body.indexOf('/') >= 0;
    if (body.startsWith("/")) {
      body = body.substring(1);
    }
    if (body.isEmpty()) {
      throw new IllegalArgumentException("invalid glob '" + pattern + "': no name" + SYNTAX);
    }
    List<Segment> segments = new ArrayList<>();
    if (!anchored) {
      segments.add(null); // a name at any depth: **/name
    }
    for (String part : body.split("/", -1)) {
      segments.add(part.equals("**") ? null : Segment.parse(part, pattern));
    }
    return new GlobMatcher(pattern, negated, directoryOnly, segments.toArray(new Segment[0]));
  }

  /**
   * Whether a list of globs selects {@code path}, a file's root-relative path: the last glob that
   * {@linkplain #matchesFile matches it} decides (selected unless it is {@link #negated()}); a
   * file no glob matches is selected unless some glob is an inclusion. An empty list selects every
   * file.
   */
  public static boolean selects(List<GlobMatcher> globs, String path) {
    boolean anyInclude = false;
    for (int i = globs.size() - 1; i >= 0; i--) {
      GlobMatcher g = globs.get(i);
      if (g.matchesFile(path)) {
        return !g.negated;
      }
      anyInclude |= !g.negated;
    }
    return !anyInclude;
  }

  /** The glob as it was given. */
  public String pattern() {
    return pattern;
  }

  /** Whether the glob started with {@code !} (an exclusion). */
  public boolean negated() {
    return negated;
  }

  /** Whether the glob ended with {@code /} (it matches directories only). */
  public boolean directoryOnly() {
    return directoryOnly;
  }

  /**
   * Whether the glob matches the file {@code path} or one of its directories ({@code vendor/}
   * matches {@code vendor/a/b.go}); the sign ({@link #negated()}) is not applied.
   *
   * @param path root-relative and {@code /}-separated, without a leading or trailing {@code /}
   */
  public boolean matchesFile(String path) {
    if (matches(path, false)) {
      return true;
    }
    for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      if (matches(path.substring(0, slash), true)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the glob matches exactly {@code path} (not a directory above it); the sign
   * ({@link #negated()}) is not applied.
   *
   * @param path root-relative and {@code /}-separated, without a leading or trailing {@code /}
   * @param directory whether {@code path} is a directory (a {@link #directoryOnly()} glob matches
   *     nothing else)
   */
  public boolean matches(String path, boolean directory) {
    if (directoryOnly && !directory) {
      return false;
    }
    String[] parts = path.split("/", -1);
    // memo[p][s]: 0 unknown, 1 match, 2 no match
    byte[][] memo = new byte[segments.length + 1][parts.length + 1];
    return match(0, 0, parts, memo);
  }

  private boolean match(int p, int s, String[] parts, byte[][] memo) {
    if (memo[p][s] != 0) {
      return memo[p][s] == 1;
    }
    boolean result;
    if (p == segments.length) {
      result = s == parts.length;
    } else if (segments[p] == null) {
      // a trailing ** matches everything inside (one or more names), any other zero or more
      result = p == segments.length - 1 ? s < parts.length
          : match(p + 1, s, parts, memo) || (s < parts.length && match(p, s + 1, parts, memo));
    } else {
      result = s < parts.length && segments[p].matches(parts[s])
          && match(p + 1, s + 1, parts, memo);
    }
    memo[p][s] = (byte) (result ? 1 : 2);
    return result;
  }

  @Override
  public String toString() {
    return pattern;
  }

  /** Drops trailing spaces that are not escaped with a backslash (as git does). */
  private static String trimTrailingSpaces(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ' && !escapedAt(s, end - 1)) {
      end--;
    }
    return s.substring(0, end);
  }

  /** Whether the character at {@code i} follows an odd number of backslashes. */
  private static boolean escapedAt(String s, int i) {
    int n = 0;
    for (int j = i - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
      n++;
    }
    return n % 2 == 1;
  }

  /** One segment other than {@code **}: literal code points, {@code ?}, {@code *} and classes. */
  private static final class Segment {
    private final int[] kinds;
    private final int[] points;
    private final CharClass[] classes;

    private Segment(int[] kinds, int[] points, CharClass[] classes) {
      this.kinds = kinds;
      this.points = points;
      this.classes = classes;
    }

    static Segment parse(String text, String pattern) {
      int n = text.length();
      int[] kinds = new int[n];
      int[] points = new int[n];
      CharClass[] classes = new CharClass[n];
      int size = 0;
      int i = 0;
      while (i < n) {
        int c = text.codePointAt(i);
        if (c == '\\') {
          if (i + 1 >= n) {
            throw new IllegalArgumentException(
                "invalid glob '" + pattern + "': a trailing backslash" + SYNTAX);
          }
          points[size] = text.codePointAt(i + 1);
          kinds[size++] = LITERAL;
          i += 1 + Character.charCount(points[size - 1]);
        } else if (c == '*') {
          if (size == 0 || kinds[size - 1] != STAR) {
            kinds[size++] = STAR;
          }
          i++;
        } else if (c == '?') {
          kinds[size++] = ONE;
          i++;
        } else if (c == '[') {
          int[] end = {0};
          classes[size] = CharClass.parse(text, i + 1, end, pattern);
          kinds[size++] = CLASS;
          i = end[0];
        } else {
          points[size] = c;
          kinds[size++] = LITERAL;
          i += Character.charCount(c);
        }
      }
      return new Segment(Arrays.copyOf(kinds, size), Arrays.copyOf(points, size),
          Arrays.copyOf(classes, size));
    }

    /** Wildcard match by code point; a {@code *} backtracks to its last position only. */
    boolean matches(String name) {
      int[] text = name.codePoints().toArray();
      int p = 0;
      int t = 0;
      int star = -1;
      int resume = 0;
      while (t < text.length) {
        if (p < kinds.length && kinds[p] != STAR && one(p, text[t])) {
          p++;
          t++;
        } else if (p < kinds.length && kinds[p] == STAR) {
          star = p++;
          resume = t;
        } else if (star >= 0) {
          p = star + 1;
          t = ++resume;
        } else {
          return false;
        }
      }
      while (p < kinds.length && kinds[p] == STAR) {
        p++;
      }
      return p == kinds.length;
    }

    private boolean one(int p, int c) {
      switch (kinds[p]) {
        case LITERAL:
          return points[p] == c;
        case ONE:
          return true;
        default:
          return classes[p].contains(c);
      }
    }
  }

  /** A bracket expression: code points, ranges and POSIX classes, maybe negated. */
  private static final class CharClass {
    private static final List<String> NAMES = List.of("alnum", "alpha", "blank", "cntrl",
        "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit", "word");

    private final boolean negated;
    /** Pairs of inclusive bounds. */
    private final int[] ranges;
    private final List<String> named;

    private CharClass(boolean negated, int[] ranges, List<String> named) {
      this.negated = negated;
      this.ranges = ranges;
      this.named = named;
    }

    /** Parses from just after {@code [}; {@code end[0]} receives the index after {@code ]}. */
    static CharClass parse(String text, int from, int[] end, String pattern) {
      int i = from;
      boolean negated = i < text.length() && (text.charAt(i) == '!' || text.charAt(i) == '^');
      if (negated) {
        i++;
      }
      List<Integer> bounds = new ArrayList<>();
      List<String> named = new ArrayList<>();
      boolean first = true;
      while (true) {
        if (i >= text.length()) {
          throw new IllegalArgumentException(
              "invalid glob '" + pattern + "': an unclosed [" + SYNTAX);
        }
        int c = text.codePointAt(i);
        if (c == ']' && !first) {
          end[0] = i + 1;
          break;
        }
        first = false;
        if (c == '[' && text.startsWith("[:", i)) {
          int close = text.indexOf(":]", i + 2);
          if (close < 0) {
            throw new IllegalArgumentException(
                "invalid glob '" + pattern + "': an unclosed [:" + SYNTAX);
          }
          String name = text.substring(i + 2, close);
          if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("invalid glob '" + pattern
                + "': unknown character class [:" + name + ":] (known: " + NAMES + ")");
          }
          named.add(name);
          i = close + 2;
          continue;
        }
        int[] next = {0};
        int low = member(text, i, next, pattern);
        i = next[0];
        int high = low;
        if (i + 1 < text.length() && text.charAt(i) == '-' && text.charAt(i + 1) != ']') {
          high = member(text, i + 1, next, pattern);
          i = next[0];
          if (high < low) {
            throw new IllegalArgumentException("invalid glob '" + pattern
                + "': a reversed range " + new String(Character.toChars(low)) + "-"
                + new String(Character.toChars(high)) + SYNTAX);
          }
        }
        bounds.add(low);
        bounds.add(high);
      }
      return new CharClass(negated, bounds.stream().mapToInt(Integer::intValue).toArray(),
          List.copyOf(named));
    }

    /** One member at {@code i} (a backslash escapes); {@code next[0]} is the index after it. */
    private static int member(String text, int i, int[] next, String pattern) {
      int c = text.codePointAt(i);
      if (c == '\\') {
        if (i + 1 >= text.length()) {
          throw new IllegalArgumentException(
              "invalid glob '" + pattern + "': an unclosed [" + SYNTAX);
        }
        c = text.codePointAt(i + 1);
        i++;
      }
      next[0] = i + Character.charCount(c);
      return c;
    }

    boolean contains(int c) {
      boolean in = false;
      for (int i = 0; i < ranges.length && !in; i += 2) {
        in = ranges[i] <= c && c <= ranges[i + 1];
      }
      for (int i = 0; i < named.size() && !in; i++) {
        in = named(named.get(i), c);
      }
      return in != negated;
    }

    /** The POSIX classes over ASCII (git's "C" locale). */
    private static boolean named(String name, int c) {
      boolean upper = c >= 'A' && c <= 'Z';
      boolean lower = c >= 'a' && c <= 'z';
      boolean digit = c >= '0' && c <= '9';
      boolean graph = c > 0x20 && c < 0x7f;
      switch (name) {
        case "alnum":
          return upper || lower || digit;
        case "alpha":
          return upper || lower;
        case "blank":
          return c == ' ' || c == '\t';
        case "cntrl":
          return c < 0x20 || c == 0x7f;
        case "digit":
          return digit;
        case "graph":
          return graph;
        case "lower":
          return lower;
        case "print":
          return graph || c == ' ';
        case "punct":
          return graph && !(upper || lower || digit);
        case "space":
          return c == ' ' || (c >= '\t' && c <= '\r');
        case "upper":
          return upper;
        case "xdigit":
          return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        default: // word
          return upper || lower || digit || c == '_';
      }
    }
  }
}
