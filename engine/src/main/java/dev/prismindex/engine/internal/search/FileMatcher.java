package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.engine.spi.StoreFields;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.GlobMatcher;
import dev.prismindex.repository.RelativePath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * A {@link FileFilter} compiled for one search: the predicate on repository-relative paths (scope,
 * then language by file name, then globs with core's gitignore-syntax {@link GlobMatcher#selects}), and the same rule as
 * a Lucene filter on the {@link StoreFields#PATH} of CHUNK and FILE documents. Scopes alone become
 * term and prefix queries; languages and globs are resolved against the paths of the commit's
 * files ({@code StoreReader#paths}) into a term set, so every engine applies them before it
 * ranks or cuts.
 */
public final class FileMatcher {

  private static final FileMatcher ALL = new FileMatcher(List.of(), Set.of(), List.of());

  /** Braces with a comma: shell or ripgrep alternatives, which gitignore syntax does not have. */
  private static final Pattern BRACES = Pattern.compile("\\{[^}]*,[^}]*}");

  private final List<String> scopes;
  private final Set<String> languages;
  private final List<GlobMatcher> globs;

  private FileMatcher(List<String> scopes, Set<String> languages, List<GlobMatcher> globs) {
    this.scopes = scopes;
    this.languages = languages;
    this.globs = globs;
  }

  /** The matcher of {@code filter} (validated by {@link FileFilter}'s constructor). */
  public static FileMatcher of(FileFilter filter) {
    if (filter.all()) {
      return ALL;
    }
    List<GlobMatcher> globs = new ArrayList<>(filter.globs().size());
    for (String g : filter.globs()) {
      globs.add(GlobMatcher.compile(g));
    }
    return new FileMatcher(filter.scopes(), Set.copyOf(filter.languages()), List.copyOf(globs));
  }

  /**
   * Checks one glob of a {@link FileFilter}.
   *
   * @throws IllegalArgumentException when it is blank, a gitignore comment ({@code #...}), uses
   *     braces, or cannot be parsed (an unclosed {@code [}, a trailing backslash)
   */
  public static void checkGlob(String glob) {
    String body = glob.startsWith("!") ? glob.substring(1) : glob;
    if (BRACES.matcher(body).find()) {
      throw new IllegalArgumentException("invalid glob '" + glob + "': braces are not gitignore"
          + " syntax; give one glob per alternative");
    }
    GlobMatcher.compile(glob);
  }

  /** Whether every file is selected. */
  public boolean all() {
    return this == ALL;
  }

  /** Whether the filter has languages or globs (not only scopes). */
  public boolean languagesOrGlobs() {
    return !languages.isEmpty() || !globs.isEmpty();
  }

  /** The normalised scopes (empty: the whole repository). */
  public List<String> scopes() {
    return scopes;
  }

  /** Whether the filter selects the repository-relative {@code path}. */
  public boolean test(String path) {
    if (this == ALL) {
      return true;
    }
    if (!inScope(path)) {
      return false;
    }
    if (!languages.isEmpty() && !languages.contains(Languages.detect(path))) {
      return false;
    }
    return GlobMatcher.selects(globs, path);
  }

  private boolean inScope(String path) {
    return inScope(path, scopes);
  }

  /**
   * Whether {@code path} equals or lies below one of {@code scopes} (any path when there is none),
   * by the one path rule ({@link RelativePath#isInScope}).
   */
  public static boolean inScope(String path, List<String> scopes) {
    if (scopes.isEmpty()) {
      return true;
    }
    for (String s : scopes) {
      if (RelativePath.isInScope(s, path)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The filter as a Lucene query on {@link StoreFields#PATH} (null when every file is selected): the
   * scopes as exact and prefix terms, or, with languages or globs, the set of the commit's paths
   * that {@link #test} selects ({@link MatchNoDocsQuery} when none is).
   */
  public @Nullable Query query(StoreReader reader) throws IOException {
    if (this == ALL) {
      return null;
    }
    if (languages.isEmpty() && globs.isEmpty()) {
      BooleanQuery.Builder b = new BooleanQuery.Builder();
      for (String s : scopes) {
        b.add(new TermQuery(new Term(StoreFields.PATH, s)), BooleanClause.Occur.SHOULD);
        b.add(new PrefixQuery(new Term(StoreFields.PATH, s + "/")), BooleanClause.Occur.SHOULD);
      }
      return b.build();
    }
    Set<BytesRef> paths = new TreeSet<>();
    for (String path : reader.paths(scopes)) {
      if (test(path)) {
        paths.add(new BytesRef(path));
      }
    }
    return paths.isEmpty() ? new MatchNoDocsQuery("no indexed file passes the filter")
        : new TermInSetQuery(StoreFields.PATH, paths);
  }
}
