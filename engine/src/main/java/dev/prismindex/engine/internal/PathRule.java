package dev.prismindex.engine.internal;

import org.jspecify.annotations.Nullable;

/**
 * The engine's one place for repository-relative paths and scopes ({@code SearchOpts}'s scope,
 * the seam's update and remove paths). Core is adding {@code dev.prismindex.repository.RelativePath}
 * with the rule shared by every module; switching to it is a change of this class only.
 */
public final class PathRule {

  private PathRule() {}

  /**
   * The normalised scope ({@code ./} prefixes and trailing {@code /} stripped, {@code \} read as
   * {@code /}), or null for the whole repository ({@code null}, {@code ""}, {@code "."}).
   *
   * @throws IllegalArgumentException when the scope leaves the repository
   */
  public static @Nullable String scope(@Nullable String scope) {
    if (scope == null) {
      return null;
    }
    String s = scope.replace('\\', '/');
    while (s.startsWith("./")) {
      s = s.substring(2);
    }
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.isEmpty() || s.equals(".")) {
      return null;
    }
    if (s.startsWith("/") || s.equals("..") || s.startsWith("../") || s.contains("/../")
        || s.endsWith("/..")) {
      throw new IllegalArgumentException("path scope must stay inside the repository: " + scope);
    }
    return s;
  }

  /**
   * The path without its {@code ./} prefixes.
   *
   * @throws IllegalArgumentException when it is empty, {@code .}, absolute, holds {@code \}, NUL or a
   *     {@code ..} segment
   */
  public static String path(String path) {
    String p = path;
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    if (p.isEmpty() || p.startsWith("/") || p.contains("\\") || p.equals("..")
        || p.startsWith("../") || p.contains("/../") || p.endsWith("/..") || p.indexOf('\0') >= 0
        || p.equals(".")) {
      throw new IllegalArgumentException("path must be repository-relative: " + path);
    }
    return p;
  }
}
