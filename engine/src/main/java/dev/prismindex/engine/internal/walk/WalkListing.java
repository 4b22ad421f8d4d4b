package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.FileListing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The index's walk ({@link RepoWalker}) as core's {@link FileListing} SPI: the files an index of
 * the root with these options reads (git's listing through JGit, {@code .prismignore}, the pruned
 * directories and the index home, the name rules and the secret deny list by name), so that core's
 * scanner, run over it ({@code RepositoryOperations.listed}), reads the same files. The walk is
 * not cut by the operation's signal or deadline: it runs to its end, as an index run's does.
 */
public final class WalkListing implements FileListing {

  private final Path root;
  private final Path home;
  private final FileRules rules;

  /** The listing of an index opened with {@code options}. */
  public WalkListing(HybridIndexOptions options) {
    this.root = options.root();
    this.home = options.home();
    this.rules = FileRules.of(options);
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code realRoot} is the real path of the options' root; an index home inside the root is
   * found at the same place below it.
   */
  @Override
  public List<String> files(Path realRoot, @Nullable AbortSignal signal, long timeoutMillis)
      throws IOException {
    Path realHome = home.startsWith(root) ? realRoot.resolve(root.relativize(home)) : home;
    return new RepoWalker(realRoot, realHome, rules).walk().paths();
  }

  @Override
  public String toString() {
    return "WalkListing[" + root + "]";
  }
}
