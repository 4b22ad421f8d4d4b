package dev.prismindex.repository;

import java.util.ArrayList;
import java.util.List;

/**
 * The glob matcher (the reference's {@code matchGlobPattern}), compiled once per pattern.
 *
 * <p>Pattern and path are split on {@code /} after turning backslashes into {@code /}; one leading
 * and one trailing empty segment are dropped. A {@code **} segment matches zero or more whole
 * segments; in any other segment {@code *} matches any run of characters (possibly empty, never a
 * {@code /}), {@code ?} exactly one UTF-16 unit, and every other character itself. There are no
 * character classes and no escapes, and dot files are not special. The empty pattern matches only
 * the empty path.
 */
final class GlobMatcher {

  private final String[] segments;

  private GlobMatcher(String[] segments) {
    this.segments = segments;
  }

  static GlobMatcher compile(String pattern) {
    return new GlobMatcher(split(pattern));
  }

  /** Whether {@code path} matches {@code pattern}. */
  static boolean matches(String pattern, String path) {
    return compile(pattern).matches(path);
  }

  boolean matches(String path) {
    String[] parts = split(path);
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
    } else if (segments[p].equals("**")) {
      result = match(p + 1, s, parts, memo) || (s < parts.length && match(p, s + 1, parts, memo));
    } else {
      result = s < parts.length && matchSegment(segments[p], parts[s])
          && match(p + 1, s + 1, parts, memo);
    }
    memo[p][s] = (byte) (result ? 1 : 2);
    return result;
  }

  /** Wildcard match of one segment: {@code *} any run, {@code ?} one unit, others literal. */
  static boolean matchSegment(String pattern, String text) {
    int p = 0;
    int t = 0;
    int star = -1;
    int resume = 0;
    while (t < text.length()) {
      if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))
          && pattern.charAt(p) != '*') {
        p++;
        t++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        resume = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  static String[] split(String value) {
    String normalized = value.replace('\\', '/');
    List<String> parts = new ArrayList<>(List.of(normalized.split("/", -1)));
    if (!parts.isEmpty() && parts.get(0).isEmpty()) {
      parts.remove(0);
    }
    if (!parts.isEmpty() && parts.get(parts.size() - 1).isEmpty()) {
      parts.remove(parts.size() - 1);
    }
    return parts.toArray(new String[0]);
  }
}
