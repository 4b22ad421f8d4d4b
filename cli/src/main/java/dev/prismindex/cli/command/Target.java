package dev.prismindex.cli.command;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which repository and which index directory a command works on, or which repositories, and the
 * one rule that resolves them from {@code --repo} (repeatable), {@code --workspace}, {@code
 * --index-dir}, {@code PRISM_INDEX_DIR} and the workspace file found above the working directory
 * ({@link WorkspaceFile}). Light on purpose: the resident server's client ({@code ServeClient})
 * resolves its target here before anything else loads, so this class touches no Lucene or model
 * class (the default directory name is a compile-time constant).
 *
 * @param root the repository root (absolute, normalised); for a workspace, the directory of its
 *     file, or the current repository's root for a list of {@code --repo}s (where its search
 *     defaults are read)
 * @param home the index directory (absolute, normalised); for a workspace, the directory its
 *     resident server keeps its files in: {@code .prism-workspace} beside its file, or the first
 *     repository's index directory for a list of {@code --repo}s (whose server then answers it)
 * @param members a workspace's repositories, in order, names unique; empty for one repository
 * @param workspaceFile the workspace's file, null for one repository or a list of {@code --repo}s
 */
public record Target(Path root, Path home, List<Member> members, @Nullable Path workspaceFile) {

  /** The index directory's name below the repository root when none is given. */
  public static final String DEFAULT_HOME_NAME =
      dev.prismindex.engine.HybridIndexOptions.DEFAULT_HOME_NAME;

  /**
   * One repository of a workspace.
   *
   * @param name its short name, unique in the workspace (hits carry it)
   * @param target its root and index directory
   * @param optional whether a search skips it, with a note, when it cannot be searched (missing,
   *     no index, corrupt, incompatible); otherwise that fails the search (exit code 3)
   */
  public record Member(String name, Target target, boolean optional) {
    public Member {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(target, "target");
    }
  }

  public Target {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(home, "home");
    members = List.copyOf(members);
  }

  /** One repository. */
  public Target(Path root, Path home) {
    this(root, home, List.of(), null);
  }

  /** Whether this is a workspace (several repositories searched as one). */
  public boolean workspace() {
    return !members.isEmpty();
  }

  /** This workspace with only the repositories {@code selected} (a repository filter). */
  public Target withMembers(List<Member> selected) {
    return new Target(root, home, selected, workspaceFile);
  }

  /**
   * Resolves the raw values of {@code --repo} and {@code --index-dir} (null when absent) against
   * the environment's working directory and {@code PRISM_INDEX_DIR}; without {@code --repo}, a
   * workspace file found above the working directory is used.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a path that cannot be resolved or a
   *     {@code --repo} that is not a directory
   */
  public static Target resolve(@Nullable String repoOption, @Nullable String indexDirOption,
      Environment env) throws CliFailure {
    return resolve(repoOption == null ? List.of() : List.of(repoOption), null, indexDirOption,
        env);
  }

  /**
   * Resolves the target of a command: one {@code --repo} is that repository; several are a
   * workspace of them, named by their directories; {@code --workspace FILE} is the workspace that
   * file lists; neither is the workspace of the nearest {@value WorkspaceFile#NAME} at or above
   * the working directory when no repository root ({@code .git}) comes first, else the repository
   * found as before (the nearest directory holding {@code .git}, else the working directory).
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a path that cannot be resolved, a {@code
   *     --repo} that is not a directory, a workspace file that cannot be read, both {@code --repo}
   *     and {@code --workspace}, or {@code --index-dir} / {@code PRISM_INDEX_DIR} with a workspace
   */
  public static Target resolve(List<String> repoOptions, @Nullable String workspaceOption,
      @Nullable String indexDirOption, Environment env) throws CliFailure {
    if (workspaceOption != null && !repoOptions.isEmpty()) {
      throw CliFailure.usage("--repo and --workspace both name what to search: give one of them");
    }
    if (repoOptions.size() > 1) {
      List<Path> roots = new ArrayList<>();
      for (String r : repoOptions) {
        roots.add(directory(env.cwd(), r));
      }
      noIndexDir(indexDirOption, env, "a workspace of several --repo");
      List<Member> members = WorkspaceFile.members(roots);
      return new Target(repositoryRoot(env.cwd()), members.get(0).target().home(), members, null);
    }
    if (repoOptions.size() == 1) {
      return single(directory(env.cwd(), repoOptions.get(0)), indexDirOption, env);
    }
    Path file = workspaceOption != null ? resolve(env.cwd(), workspaceOption, "--workspace")
        : WorkspaceFile.find(env.cwd());
    if (file == null) {
      return single(repositoryRoot(env.cwd()), indexDirOption, env);
    }
    noIndexDir(indexDirOption, env, "the workspace " + file);
    return WorkspaceFile.read(file);
  }

  private static Target single(Path repo, @Nullable String indexDirOption, Environment env)
      throws CliFailure {
    String dir = indexDirOption != null ? indexDirOption
        : env.variable(Environment.INDEX_DIR_VARIABLE);
    Path home = dir == null ? repo.resolve(DEFAULT_HOME_NAME)
        : resolve(env.cwd(), dir, indexDirOption != null ? "--index-dir"
            : Environment.INDEX_DIR_VARIABLE);
    return new Target(repo, home);
  }

  /** A workspace's repositories each have their index directory: one cannot be given for all. */
  private static void noIndexDir(@Nullable String indexDirOption, Environment env, String what)
      throws CliFailure {
    String given = indexDirOption != null ? "--index-dir"
        : env.variable(Environment.INDEX_DIR_VARIABLE) != null
            ? Environment.INDEX_DIR_VARIABLE : null;
    if (given != null) {
      throw CliFailure.usage(given + " names one index directory, but " + what + " has one per"
          + " repository: " + (given.startsWith("--") ? "leave it out" : "unset it")
          + " (a workspace file sets index-dir per [[repo]]), or give one --repo DIR");
    }
  }

  private static Path directory(Path cwd, String value) throws CliFailure {
    Path repo = resolve(cwd, value, "--repo");
    if (!Files.isDirectory(repo)) {
      throw CliFailure.usage("--repo " + value + " is not a directory");
    }
    return repo;
  }

  static Path resolve(Path cwd, String value, String what) throws CliFailure {
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
