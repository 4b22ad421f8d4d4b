package dev.prismindex.engine.walk;

import dev.prismindex.engine.SkipReason;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The name-based rules of the walker: pruned directories, lock files, minified and secret-looking
 * names, and the configured include/exclude globs. Content rules (binary, size, long lines) are
 * applied by the indexer once the file is read.
 */
public final class FileRules {

  /** Directory names never entered, at any depth. */
  public static final Set<String> PRUNED_DIRECTORIES = Set.of(".git", "node_modules");

  /**
   * Directory names of generated output and vendored dependencies: pruned unless an ancestor
   * directory is named {@code src} (below {@code src} such names are source packages, e.g. Java's
   * {@code org/springframework/aop/target}).
   */
  public static final Set<String> OUTPUT_DIRECTORIES = Set.of("vendor", "dist", "build", "target");

  /** Lock files (generated, huge, and useless to search). */
  public static final Set<String> LOCK_FILES = Set.of("package-lock.json", "yarn.lock",
      "pnpm-lock.yaml", "Cargo.lock", "go.sum", "poetry.lock", "Gemfile.lock", "composer.lock",
      "Pipfile.lock", "bun.lockb", "flake.lock", "mix.lock", "pubspec.lock", "Podfile.lock",
      "gradle.lockfile", "npm-shrinkwrap.json", "uv.lock");

  private static final List<String> SECRET_SUFFIXES =
      List.of(".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk");
  private static final List<String> SECRET_PREFIXES =
      List.of(".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519");
  private static final Set<String> SECRET_NAMES =
      Set.of(".netrc", ".pgpass", ".htpasswd", "credentials", ".npmrc", ".pypirc");

  private final boolean indexSecrets;
  private final List<PathMatcher> include;
  private final List<PathMatcher> exclude;

  public FileRules(List<String> include, List<String> exclude, boolean indexSecrets) {
    this.include = compile(include);
    this.exclude = compile(exclude);
    this.indexSecrets = indexSecrets;
  }

  private static List<PathMatcher> compile(List<String> globs) {
    List<PathMatcher> out = new ArrayList<>();
    for (String glob : globs) {
      out.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
      if (glob.startsWith("**/")) {
        out.add(FileSystems.getDefault().getPathMatcher("glob:" + glob.substring(3)));
      }
    }
    return out;
  }

  /**
   * Whether a directory is pruned, by its path relative to the indexed root ({@code /}-separated):
   * {@link #PRUNED_DIRECTORIES} always, {@link #OUTPUT_DIRECTORIES} unless an ancestor segment is
   * {@code src}. The rule is purely path-based, so the git walk, the plain walk and named-path
   * updates agree.
   */
  public boolean prunesDirectory(String relativePath) {
    String name = relativePath.substring(relativePath.lastIndexOf('/') + 1);
    if (PRUNED_DIRECTORIES.contains(name)) {
      return true;
    }
    if (!OUTPUT_DIRECTORIES.contains(name)) {
      return false;
    }
    return !("/" + relativePath).contains("/src/");
  }

  /** Whether any ancestor directory of a file (path relative to the indexed root) is pruned. */
  public boolean underPrunedDirectory(String relativePath) {
    for (int slash = relativePath.indexOf('/'); slash > 0;
        slash = relativePath.indexOf('/', slash + 1)) {
      if (prunesDirectory(relativePath.substring(0, slash))) {
        return true;
      }
    }
    return false;
  }

  /** Why a file is skipped by its path alone, or {@code null} when it is kept. */
  public @Nullable SkipReason skipByName(String relativePath) {
    String name = relativePath.substring(relativePath.lastIndexOf('/') + 1);
    if (LOCK_FILES.contains(name)) {
      return SkipReason.LOCK_FILE;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".min.js") || lower.endsWith(".min.css") || lower.endsWith(".min.mjs")) {
      return SkipReason.MINIFIED;
    }
    if (!indexSecrets && isSecretName(lower)) {
      return SkipReason.SECRET;
    }
    if (!include.isEmpty() || !exclude.isEmpty()) {
      Path p = Path.of(relativePath);
      if (!include.isEmpty() && include.stream().noneMatch(m -> m.matches(p))) {
        return SkipReason.GLOB;
      }
      if (exclude.stream().anyMatch(m -> m.matches(p))) {
        return SkipReason.GLOB;
      }
    }
    return null;
  }

  /**
   * Whether a reason of {@link #skipByName} keeps a file out of ranking only: lock files and
   * minified names are still indexed for exact literal search (a FILE document with its n-grams and
   * no chunks, so lexical and semantic search never see them), so that literal search covers them.
   */
  public static boolean literalOnly(@Nullable SkipReason reason) {
    return reason == SkipReason.LOCK_FILE || reason == SkipReason.MINIFIED;
  }

  static boolean isSecretName(String lowerName) {
    if (SECRET_NAMES.contains(lowerName)) {
      return true;
    }
    for (String prefix : SECRET_PREFIXES) {
      if (lowerName.startsWith(prefix)) {
        return true;
      }
    }
    for (String suffix : SECRET_SUFFIXES) {
      if (lowerName.endsWith(suffix)) {
        return true;
      }
    }
    return false;
  }
}
