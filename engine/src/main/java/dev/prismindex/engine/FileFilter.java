package dev.prismindex.engine;

import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.repository.RelativePath;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * Which indexed files a search may answer from ({@link SearchOpts#files()}): a file must lie in
 * one of the {@code scopes}, be of one of the {@code languages}, and be selected by the
 * {@code globs}; an empty list does not restrict. The filter is applied inside the search (a Lucene
 * filter on the candidates), never to a list already cut at the limit.
 *
 * <p>Globs use gitignore's pattern syntax, matched by core's {@link
 * dev.prismindex.repository.GlobMatcher} as git matches {@code .gitignore} lines (the syntax is
 * documented once, in {@code docs/cli.md}, "Glob syntax"):
 * {@code *} and {@code ?} never match {@code /}, {@code **} matches any number of directories,
 * {@code [abc]} is a class; a pattern without a {@code /} (other than a trailing one) matches a
 * name at any depth ({@code *.java}, {@code test}), one with a {@code /} is anchored at the
 * repository root ({@code src/*.java}, {@code /docs}); a trailing {@code /} matches directories
 * only. A glob matches a file when it matches the file's path or one of its directories (so
 * {@code vendor/} stands for everything below {@code vendor}). A leading {@code !} makes the glob
 * an exclusion. The last glob that matches a file decides; a file no glob matches is selected
 * unless some glob is an inclusion. Braces ({@code *.{ts,tsx}}) are not part of the syntax: give
 * one glob per alternative (core's {@code RepositoryGlobRequest} expands them only when asked).
 *
 * @param scopes repository-relative directories or files, normalised ({@code ./src/} is
 *     {@code src}), without duplicates; empty for the whole repository
 * @param languages language names as {@link Hit#language()} reports them ({@link #knownLanguages()}),
 *     lower case, without duplicates; empty for every language
 * @param globs gitignore-syntax patterns, a leading {@code !} excluding, in the order given
 */
public record FileFilter(List<String> scopes, List<String> languages, List<String> globs) {

  /** Every indexed file. */
  public static final FileFilter ALL = new FileFilter(List.of(), List.of(), List.of());

  /**
   * Normalises and validates the filter.
   *
   * @throws IllegalArgumentException for a scope that leaves the repository, an unknown
   *     language, or a glob that is blank, a comment, unparseable or uses braces
   */
  public FileFilter {
    Set<String> s = new LinkedHashSet<>();
    boolean whole = false;
    for (String scope : List.copyOf(scopes)) {
      String n = RelativePath.normaliseScope(scope);
      if (n == null) {
        whole = true;
      } else {
        s.add(n);
      }
    }
    scopes = whole ? List.of() : List.copyOf(s);
    Set<String> known = Languages.patterns().keySet();
    Set<String> l = new LinkedHashSet<>();
    for (String language : List.copyOf(languages)) {
      String lower = language.toLowerCase(Locale.ROOT);
      if (!known.contains(lower)) {
        throw new IllegalArgumentException("unknown language '" + language + "'");
      }
      l.add(lower);
    }
    languages = List.copyOf(l);
    globs = List.copyOf(globs);
    for (String glob : globs) {
      FileMatcher.checkGlob(glob);
    }
  }

  /**
   * The filter of one path scope ({@code null}, {@code ""} or {@code "."}: every file).
   *
   * @throws IllegalArgumentException when the scope leaves the repository
   */
  public static FileFilter scope(@Nullable String scope) {
    String n = RelativePath.normaliseScope(scope);
    return n == null ? ALL : new FileFilter(List.of(n), List.of(), List.of());
  }

  /** Whether the filter selects every file. */
  public boolean all() {
    return scopes.isEmpty() && languages.isEmpty() && globs.isEmpty();
  }

  /**
   * Whether the filter selects the repository-relative {@code path} (the rule the search applies).
   */
  public boolean test(String path) {
    return FileMatcher.of(this).test(Objects.requireNonNull(path, "path"));
  }

  /**
   * Every language a file can have, with the file-name patterns that select it ({@code java:
   * *.java}), sorted by name. {@code text} is also the language of any file no pattern selects.
   */
  public static SortedMap<String, List<String>> knownLanguages() {
    return Languages.patterns();
  }
}
