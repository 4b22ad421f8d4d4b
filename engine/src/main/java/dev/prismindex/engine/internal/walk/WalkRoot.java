package dev.prismindex.engine.internal.walk;

import java.io.File;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The tree a walk covers, as {@link RepoWalker} and both its halves ({@link GitWalk}, {@link
 * PlainWalk}) see it: the root, the index home when it lies inside the root, and the name rules;
 * with the one rule of which directories no walk enters and the one spelling of a relative path.
 *
 * @param root the repository root (absolute, normalised)
 * @param homeRelative the index home relative to the root, or null when it lies outside
 * @param rules the name rules
 */
record WalkRoot(Path root, @Nullable String homeRelative, FileRules rules) {

  /** The tree of {@code root} with the index in {@code home}. */
  static WalkRoot of(Path root, Path home, FileRules rules) {
    String homeRelative = home.startsWith(root) && !home.equals(root)
        ? relative(root, home) : null;
    return new WalkRoot(root, homeRelative, rules);
  }

  /**
   * Whether no walk enters the directory {@code rel}: a pruned name ({@link
   * FileRules#prunesDirectory}) or the index home.
   */
  boolean prunes(String rel) {
    return rules.prunesDirectory(rel) || rel.equals(homeRelative);
  }

  /** {@code p} relative to the root, {@code /}-separated. */
  String relative(Path p) {
    return relative(root, p);
  }

  private static String relative(Path root, Path p) {
    return root.relativize(p).toString().replace(File.separatorChar, '/');
  }
}
