package dev.prismindex.repository;

import dev.prismindex.internal.Utf8;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounded brace expansion for glob patterns (the reference's {@code expandGlobBraces}).
 *
 * <p>Each group <code>&#123;a,b,...&#125;</code> (groups do not nest) is replaced by each of its
 * comma-separated alternatives; several groups give the cartesian product, left to right, in order.
 * A group may hold empty alternatives (<code>&#123;a,&#125;</code> gives {@code a} and the empty
 * string) but may not be empty itself (<code>&#123;&#125;</code>).
 *
 * <p>Errors, all {@link RepositoryException}s, in the order they are detected: a closing brace
 * without an open group, or a group left open: {@code "unbalanced brace expansion in pattern: <p>"};
 * an opening brace inside a group: {@code "nested brace expansion is not supported in pattern:
 * <p>"}; an empty group: {@code "empty brace expansion in pattern: <p>"}; more than
 * {@value #MAX_ALTERNATIVES} results: {@code "brace expansion exceeds 128 alternative limit"}; any
 * single result over {@value #MAX_EXPANDED_BYTES} UTF-8 bytes: {@code "brace expansion exceeds 4096
 * byte limit"} (a per-alternative bound, as the reference enforces it).
 */
final class BraceExpansion {

  static final int MAX_ALTERNATIVES = 128;
  static final int MAX_EXPANDED_BYTES = 4_096;

  private BraceExpansion() {}

  static List<String> expand(String pattern) {
    return expand(pattern, MAX_ALTERNATIVES, MAX_EXPANDED_BYTES);
  }

  static List<String> expand(String pattern, int maxAlternatives, int maxBytes) {
    List<List<String>> parts = parse(pattern);
    List<String> results = List.of("");
    for (List<String> part : parts) {
      if ((long) results.size() * part.size() > maxAlternatives) {
        throw new RepositoryException(
            "brace expansion exceeds " + maxAlternatives + " alternative limit");
      }
      List<String> next = new ArrayList<>(results.size() * part.size());
      for (String prefix : results) {
        for (String alternative : part) {
          next.add(prefix + alternative);
        }
      }
      results = next;
    }
    for (String result : results) {
      if (Utf8.byteLength(result) > maxBytes) {
        throw new RepositoryException("brace expansion exceeds " + maxBytes + " byte limit");
      }
    }
    return List.copyOf(results);
  }

  /** Literal runs as single-element lists, groups as their alternatives. */
  private static List<List<String>> parse(String pattern) {
    List<List<String>> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == '}') {
        throw new RepositoryException("unbalanced brace expansion in pattern: " + pattern);
      }
      if (c != '{') {
        literal.append(c);
        i++;
        continue;
      }
      int close = -1;
      for (int j = i + 1; j < pattern.length(); j++) {
        char d = pattern.charAt(j);
        if (d == '{') {
          throw new RepositoryException(
              "nested brace expansion is not supported in pattern: " + pattern);
        }
        if (d == '}') {
          close = j;
          break;
        }
      }
      if (close < 0) {
        throw new RepositoryException("unbalanced brace expansion in pattern: " + pattern);
      }
      if (close == i + 1) {
        throw new RepositoryException("empty brace expansion in pattern: " + pattern);
      }
      if (literal.length() > 0) {
        parts.add(List.of(literal.toString()));
        literal.setLength(0);
      }
      parts.add(List.of(pattern.substring(i + 1, close).split(",", -1)));
      i = close + 1;
    }
    if (literal.length() > 0) {
      parts.add(List.of(literal.toString()));
    }
    return parts;
  }
}
