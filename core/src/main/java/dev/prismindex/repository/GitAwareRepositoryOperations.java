package dev.prismindex.repository;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Literal operations over git's view of the tree, falling back to plain operations outside a git
 * work tree or without git.
 *
 * <p>Each call detects against its own request's root: {@code git rev-parse --is-inside-work-tree}
 * runs in the real root (output capped at 64 bytes, bounded by the git timeout and the request's
 * deadline); exit 0 with output {@code true} selects git mode. A positive answer is cached per real
 * root (and dropped again when {@code git ls-files} later fails there); a negative answer is never
 * cached, so a repository created later is picked up. In git mode the operations are {@link
 * LocalRepositoryOperations} over a {@link ListedWalk} of git's {@link LsFilesWalk} listing, with {@code options.limits()}; otherwise
 * they are {@code options.fallback()}, or local operations with {@code options.limits()}.
 */
final class GitAwareRepositoryOperations implements RepositoryOperations {

  static final List<String> REV_PARSE = List.of("rev-parse", "--is-inside-work-tree");
  static final int REV_PARSE_OUTPUT_BYTES = 64;

  private final GitAwareOptions options;
  private final RepositoryOperations fallback;
  private final GitRunner runner;
  private final LocalRepositoryOperations gitOperations;
  private final Set<Path> gitRoots = ConcurrentHashMap.newKeySet();

  GitAwareRepositoryOperations(GitAwareOptions options) {
    this(options, Map.of());
  }

  /** With extra environment variables for every git child process (tests isolate git config). */
  GitAwareRepositoryOperations(
      GitAwareOptions options, Map<String, String> environment) {
    this.options = Objects.requireNonNull(options, "options");
    this.fallback = options.fallback() != null
        ? options.fallback() : RepositoryOperations.local(options.limits());
    this.runner = new GitRunner(options.gitExecutable(), environment);
    LsFilesWalk listing = new LsFilesWalk(runner, options.includeIgnored(),
        options.maxLsFilesOutputBytes(), options.gitTimeoutMs(), gitRoots::remove);
    this.gitOperations = new LocalRepositoryOperations(options.limits(), new ListedWalk(listing));
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    return select(request.root(), request.signal(), request.deadlineMs()).search(request);
  }

  @Override
  public RepositorySearchResult stream(RepositorySearchRequest request, SearchSink sink) {
    return select(request.root(), request.signal(), request.deadlineMs()).stream(request, sink);
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    return select(request.root(), request.signal(), request.deadlineMs()).list(request);
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    RepositoryListRequest listing = request.listing();
    return select(listing.root(), listing.signal(), listing.deadlineMs()).glob(request);
  }

  /** Git-mode operations when {@code requestRoot} is inside a work tree, else the fallback. */
  RepositoryOperations select(Path requestRoot, @Nullable AbortSignal signal,
      @Nullable Long deadlineMs) {
    Path realRoot;
    try {
      realRoot = requestRoot.toAbsolutePath().normalize().toRealPath();
    } catch (IOException e) {
      return fallback; // it reports the missing root with the exact message
    }
    if (gitRoots.contains(realRoot)) {
      return gitOperations;
    }
    if (insideWorkTree(realRoot, signal, deadlineMs)) {
      gitRoots.add(realRoot);
      return gitOperations;
    }
    return fallback;
  }

  private boolean insideWorkTree(Path directory, @Nullable AbortSignal signal,
      @Nullable Long deadlineMs) {
    long timeout = options.gitTimeoutMs();
    long budget = deadlineMs != null && CodingLimits.isSafeInteger(deadlineMs) && deadlineMs > 0
        ? deadlineMs : options.limits().maxTimeMs();
    try {
      GitRunner.Result result = runner.run(directory, REV_PARSE, REV_PARSE_OUTPUT_BYTES,
          Math.min(timeout, budget), signal);
      return result.outcome() == GitRunner.Outcome.EXITED && result.exitCode() == 0
          && new String(result.stdout(), StandardCharsets.UTF_8).trim().equals("true");
    } catch (IOException | RuntimeException e) {
      return false; // no git, or it cannot run here: the plain walk is the honest answer
    }
  }

  @Override
  public String toString() {
    return "GitAwareRepositoryOperations[git=" + options.gitExecutable() + "]";
  }
}
