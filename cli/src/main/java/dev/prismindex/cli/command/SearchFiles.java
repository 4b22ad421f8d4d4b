package dev.prismindex.cli.command;

import dev.prismindex.engine.FileFilter;
import dev.prismindex.repository.RelativePath;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Which files a search covers: {@code --path} scopes (core's {@link RelativePath}, the one path
 * rule), {@code --type} languages (an unknown one answered with the closest known name) and
 * {@code --glob} patterns, each checked as {@link SearchRequests} reads it, then combined with the
 * settings' excludes into one {@link FileFilter}.
 */
final class SearchFiles {
  private SearchFiles() {}

  /**
   * The language names of {@code --type} (a string, or a list of strings), each known
   * ({@link FileFilter#knownLanguages()}).
   */
  static List<String> types(@Nullable Object value, SearchSurface.Syntax syntax)
      throws CliFailure {
    List<String> out = new ArrayList<>();
    for (String t : SearchRequests.strings(value, RawSearchArgs.TYPE, syntax)) {
      String lower = t.strip().toLowerCase(Locale.ROOT);
      if (!FileFilter.knownLanguages().containsKey(lower)) {
        String close = closest(lower, FileFilter.knownLanguages().keySet());
        throw CliFailure.usage("unknown " + syntax.name(RawSearchArgs.TYPE) + " '" + t + "'"
            + (close == null ? "" : "; did you mean " + close + "?")
            + (syntax == SearchSurface.Syntax.COMMAND_LINE ? " (see `prism-index search"
                + " --type-list`)" : " (known: " + String.join(", ",
                    FileFilter.knownLanguages().keySet()) + ")"));
      }
      out.add(lower);
    }
    return out;
  }

  /** The globs of {@code --glob} (a string, or a list of strings), each valid. */
  static List<String> globs(@Nullable Object value, SearchSurface.Syntax syntax)
      throws CliFailure {
    List<String> globs = SearchRequests.strings(value, RawSearchArgs.GLOB, syntax);
    for (String g : globs) {
      try {
        new FileFilter(List.of(), List.of(), List.of(g));
      } catch (IllegalArgumentException e) {
        throw CliFailure.usage(syntax.name(RawSearchArgs.GLOB) + ": " + e.getMessage());
      }
    }
    return globs;
  }

  /** The normalised scopes of {@code --path} (a string, or a list of strings). */
  static List<String> scopes(@Nullable Object value, SearchSurface.Syntax syntax)
      throws CliFailure {
    if (value != null && !(value instanceof String) && !(value instanceof List<?>)) {
      throw CliFailure.usage(syntax.name(RawSearchArgs.PATH) + " must be a string (a"
          + " repository-relative directory or file), not " + SearchRequests.describe(value));
    }
    List<String> out = new ArrayList<>();
    for (String path : SearchRequests.strings(value, RawSearchArgs.PATH, syntax)) {
      try {
        String scope = RelativePath.normaliseScope(path);
        out.add(scope == null ? "." : scope);
      } catch (IllegalArgumentException e) {
        throw CliFailure.usage("invalid " + syntax.name(RawSearchArgs.PATH) + ": "
            + e.getMessage());
      }
    }
    return out;
  }

  /**
   * The file filter of a search: its scopes, languages and globs, then the settings' excludes;
   * each scope must exist in the repository (in a workspace: in one of its repositories at least).
   */
  static FileFilter filter(List<String> scopes, List<String> types, List<String> globs,
      List<String> excludes, Target resolved, SearchSurface.Syntax syntax) throws CliFailure {
    List<String> allGlobs = new ArrayList<>(globs);
    for (String exclude : excludes) {
      allGlobs.add("!" + exclude);
    }
    FileFilter files;
    try {
      files = new FileFilter(scopes, types, allGlobs);
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage(e.getMessage()); // checked above; kept for safety
    }
    for (String scope : files.scopes()) {
      if (!resolved.workspace()
          && !Files.exists(resolved.root().resolve(scope), LinkOption.NOFOLLOW_LINKS)) {
        throw CliFailure.usage(syntax.name(RawSearchArgs.PATH) + " " + scope
            + ": no such file or directory in the repository " + resolved.root());
      }
      if (resolved.workspace() && resolved.members().stream().noneMatch(m -> Files.exists(
          m.target().root().resolve(scope), LinkOption.NOFOLLOW_LINKS))) {
        throw CliFailure.usage(syntax.name(RawSearchArgs.PATH) + " " + scope
            + ": no such file or directory in any repository of the workspace");
      }
    }
    return files;
  }

  /**
   * The closest of {@code names} to {@code name}: one it is a prefix of (two characters or more),
   * else one within a third of its length in edits (at least one).
   */
  private static @Nullable String closest(String name, Iterable<String> names) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    int most = Math.max(1, name.length() / 3);
    for (String n : names) {
      int d = name.length() >= 2 && n.startsWith(name) ? 0 : distance(n, name);
      if (d <= most && d < bestDistance) {
        best = n;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
