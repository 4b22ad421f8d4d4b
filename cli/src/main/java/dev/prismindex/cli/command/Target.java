package dev.prismindex.cli.command;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Which repository and which index directory a command works on, and the one rule that resolves
 * them from {@code --repo}, {@code --index-dir} and {@code PRISM_INDEX_DIR}. Light on purpose: the
 * resident server's client ({@code ServeClient}) resolves its target here before anything else
 * loads, so this class touches no engine, Lucene or model class (the default directory name is a
 * compile-time constant).
 *
 * @param root the repository root (absolute, normalised)
 * @param home the index directory (absolute, normalised)
 */
public record Target(Path root, Path home) {

  /** The index directory's name below the repository root when none is given. */
  public static final String DEFAULT_HOME_NAME =
      dev.prismindex.engine.HybridIndexOptions.DEFAULT_HOME_NAME;

  /**
   * Resolves the raw values of {@code --repo} and {@code --index-dir} (null when absent) against
   * the environment's working directory and {@code PRISM_INDEX_DIR}.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a path that cannot be resolved or a
   *     {@code --repo} that is not a directory
   */
  public static Target resolve(@Nullable String repoOption, @Nullable String indexDirOption,
      Environment env) throws CliFailure {
    Path repo;
    if (repoOption != null) {
      repo = resolve(env.cwd(), repoOption, "--repo");
      if (!Files.isDirectory(repo)) {
        throw CliFailure.usage("--repo " + repoOption + " is not a directory");
      }
    } else {
      repo = repositoryRoot(env.cwd());
    }
    String dir = indexDirOption != null ? indexDirOption
        : env.variable(Environment.INDEX_DIR_VARIABLE);
    Path home = dir == null ? repo.resolve(DEFAULT_HOME_NAME)
        : resolve(env.cwd(), dir, indexDirOption != null ? "--index-dir"
            : Environment.INDEX_DIR_VARIABLE);
    return new Target(repo, home);
  }

  private static Path resolve(Path cwd, String value, String what) throws CliFailure {
    try {
      return cwd.resolve(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw CliFailure.usage("invalid " + what + " '" + value + "': " + e.getReason());
    }
  }

  /** The nearest directory at or above {@code start} holding {@code .git}; else {@code start}. */
  public static Path repositoryRoot(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return p;
      }
    }
    return start;
  }
}
