package dev.prismindex.engine;

import dev.prismindex.repository.RelativePath;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * How {@link HybridIndex#refresh(RefreshOptions)} runs.
 *
 * @param fullRebuild re-read and re-chunk every file, replacing every lexical document (one
 *     commit); vectors of the current model are kept as cache (they are keyed by content), vectors
 *     of another model are dropped; an index whose files fail their checksums is replaced whole
 *     (its vectors too)
 * @param verify hash every file instead of trusting unchanged stat data, after verifying the
 *     checksums of the index files ({@link CorruptIndexException} when they fail)
 * @param embed after the lexical commit, embed the chunks that have no vector yet (when semantic
 *     search is available); false leaves them for a later run (coverage stays incomplete)
 * @param progress receives progress snapshots ({@link IndexProgressListener#NONE} by default)
 * @param scope the repository-relative paths ({@code /}-separated, files or directories) the run
 *     walks, sorted, none below another; empty (the default) walks the whole repository. See
 *     {@link #withScope}
 * @param lexicalOnly the index is meant to stay lexical-only (see {@link #withLexicalOnly()}); never
 *     with {@code embed}
 * @param repair see {@link #withRepair()}
 */
public record RefreshOptions(boolean fullRebuild, boolean verify, boolean embed,
    IndexProgressListener progress, Set<String> scope, boolean lexicalOnly, boolean repair) {

  /** An incremental run that trusts stat data where git's racy-timestamp rule allows. */
  public static final RefreshOptions INCREMENTAL = new RefreshOptions(false, false);
  /** An incremental run that hashes every file. */
  public static final RefreshOptions VERIFY = new RefreshOptions(false, true);
  /** A full rebuild. */
  public static final RefreshOptions FULL = new RefreshOptions(true, true);

  /**
   * @throws IllegalArgumentException when a full rebuild is scoped, or a scope path is invalid
   *     (see {@link #withScope})
   */
  public RefreshOptions {
    Objects.requireNonNull(progress, "progress");
    scope = normalise(Objects.requireNonNull(scope, "scope"));
    if (fullRebuild && !scope.isEmpty()) {
      throw new IllegalArgumentException("a full rebuild cannot be scoped");
    }
    if (embed && lexicalOnly) {
      throw new IllegalArgumentException("a lexical-only run does not embed");
    }
    if (repair && !scope.isEmpty()) {
      throw new IllegalArgumentException("a repairing run cannot be scoped");
    }
  }

  /** Options that do not repair ({@link #withRepair()}). */
  public RefreshOptions(boolean fullRebuild, boolean verify, boolean embed,
      IndexProgressListener progress, Set<String> scope, boolean lexicalOnly) {
    this(fullRebuild, verify, embed, progress, scope, lexicalOnly, false);
  }

  /** Options for {@code scope}, the index not meant to be lexical-only, not repairing. */
  public RefreshOptions(boolean fullRebuild, boolean verify, boolean embed,
      IndexProgressListener progress, Set<String> scope) {
    this(fullRebuild, verify, embed, progress, scope, false, false);
  }

  /** Options for the whole repository. */
  public RefreshOptions(boolean fullRebuild, boolean verify, boolean embed,
      IndexProgressListener progress) {
    this(fullRebuild, verify, embed, progress, Set.of());
  }

  /** Options that embed and report no progress, for the whole repository. */
  public RefreshOptions(boolean fullRebuild, boolean verify) {
    this(fullRebuild, verify, true, IndexProgressListener.NONE);
  }

  /** These options with {@code listener} receiving progress. */
  public RefreshOptions withProgress(IndexProgressListener listener) {
    return new RefreshOptions(fullRebuild, verify, embed, listener, scope, lexicalOnly, repair);
  }

  /** These options with embedding on or off (on: not {@link #withLexicalOnly()}). */
  public RefreshOptions withEmbedding(boolean value) {
    return new RefreshOptions(fullRebuild, verify, value, progress, scope, lexicalOnly && !value,
        repair);
  }

  /**
   * These options for an index meant to stay lexical-only ({@code index --no-semantic}): no
   * embedding, and into an index whose chunks have no vector keys yet (a new one, or one built
   * this way) the run writes none, so it neither builds nor hashes the text each chunk would be
   * embedded as, and the index is smaller. The first whole run that embeds adds the keys,
   * rewriting every file once. An index that has keys keeps them. Without this, a run writes keys
   * whenever semantic search is on ({@link HybridIndexOptions#semantic()} with a model), so that
   * a later run, or a watch, can embed.
   */
  public RefreshOptions withLexicalOnly() {
    return new RefreshOptions(fullRebuild, verify, false, progress, scope, true, repair);
  }

  /**
   * These options for a run that repairs: it first verifies the checksums of the index's files (a
   * read of the whole index, as {@link HybridIndex#verify} does); when they fail, or an earlier run
   * of any process found the index damaged and this verification confirms it, it rebuilds the index
   * whole from the files (as {@link #FULL} does for a damaged index, its vectors too) and says why
   * in {@link IndexRunStats#repaired()}. A run without it, on an index known to be damaged, throws
   * {@link CorruptIndexException}. What {@code prism-index index} runs.
   */
  public RefreshOptions withRepair() {
    return new RefreshOptions(fullRebuild, verify, embed, progress, scope, lexicalOnly, true);
  }

  /**
   * These options limited to {@code paths}: the run walks only those files and directories, with
   * the same rules as a whole walk (git's ignore rules including every ancestor's
   * {@code .gitignore}, pruned directory names, the index home, the depth and path-length limits,
   * the secret deny list, links never followed), re-indexes what changed there, and deletes the
   * indexed files equal to or below a scope path that the walk no longer yields. Files outside
   * the scope are neither read nor deleted, and the skip counts of the last whole walk are kept.
   * For changes confined to the scope the result equals an unscoped incremental run.
   *
   * <p>Paths are repository-relative and {@code /}-separated; a trailing {@code /} is dropped, and
   * a path below another one is dropped (the directory covers it). An empty collection means the
   * whole repository.
   *
   * @throws IllegalArgumentException when a path is empty, absolute, holds a backslash, a NUL, an
   *     empty, {@code .} or {@code ..} segment, or these options are a full rebuild
   */
  public RefreshOptions withScope(Collection<String> paths) {
    return new RefreshOptions(fullRebuild, verify, embed, progress, normalise(paths), lexicalOnly,
        repair);
  }

  private static Set<String> normalise(Collection<String> paths) {
    if (paths.isEmpty()) {
      return Set.of();
    }
    SortedSet<String> sorted = new TreeSet<>();
    for (String p : paths) {
      sorted.add(checkPath(Objects.requireNonNull(p, "scope path")));
    }
    // Sorted, a path's descendants follow it (possibly after siblings such as "a-b" or "a.c",
    // which sort before "a/"), so drop every path below a kept one.
    SortedSet<String> kept = new TreeSet<>();
    for (String p : sorted) {
      if (!coveredBy(kept, p)) {
        kept.add(p);
      }
    }
    return Collections.unmodifiableSortedSet(kept);
  }

  /** Whether {@code path} equals or lies below a member of {@code scope}. */
  private static boolean coveredBy(Set<String> scope, String path) {
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (scope.contains(path.substring(0, slash))) {
        return true;
      }
    }
    return scope.contains(path);
  }

  /**
   * A scope path by the one path rule ({@link RelativePath}), its trailing {@code /} dropped; it
   * must already be canonical (no empty or {@code .} segment: a scope names one place).
   */
  private static String checkPath(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    String canonical = RelativePath.normalise(p);
    if (!canonical.equals(p)) {
      throw new IllegalArgumentException("invalid scope path segment (empty or '.') in '" + path
          + "': write '" + canonical + "'");
    }
    return p;
  }
}
