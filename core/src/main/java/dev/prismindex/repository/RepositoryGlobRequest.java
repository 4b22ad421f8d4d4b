package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A page of the files whose root-relative path matches a glob. Build with
 * {@link #builder(Path, String)}.
 *
 * <p>The pattern is one glob in gitignore's syntax ({@link GlobMatcher}, documented in {@code
 * docs/cli.md}, "Glob syntax"): {@code *.java} matches at any depth, {@code src/*.java} is
 * anchored at the root, {@code vendor/} selects every file below a {@code vendor} directory, and a
 * leading {@code !} selects the files the rest does not match. Braces ({@code {a,b}}) are not
 * gitignore syntax: they are rejected unless {@code braceExpansion} is set, and then expanded with
 * bounds (128 alternatives, 4 096 bytes each) into globs of which a file must match one (an
 * extension of prism-index, not of git).
 *
 * @param root the workspace root; every result path is relative to it
 * @param pattern the glob, matched against the root-relative path of each file and its directories
 * @param path optional start below the root
 * @param includeHidden whether names starting with {@code .} are walked
 * @param exclude base names never entered; {@code null} uses the limits' list
 * @param maxDepth deepest level walked (1..128)
 * @param maxResults page size (1..10 000)
 * @param offset matched files skipped before the page starts (0..100 000)
 * @param braceExpansion whether {@code {a,b}} groups are expanded
 * @param signal cancels the walk; what was collected is returned, truncated
 * @param deadlineMs wall-clock budget in milliseconds (1..300 000)
 */
public record RepositoryGlobRequest(
    Path root,
    String pattern,
    @Nullable String path,
    boolean includeHidden,
    @Nullable List<String> exclude,
    @Nullable Integer maxDepth,
    @Nullable Integer maxResults,
    @Nullable Integer offset,
    boolean braceExpansion,
    @Nullable AbortSignal signal,
    @Nullable Long deadlineMs) {

  public RepositoryGlobRequest {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(pattern, "pattern");
    exclude = exclude == null ? null : List.copyOf(exclude);
  }

  /** Starts a glob of {@code pattern} under {@code root}. */
  public static Builder builder(Path root, String pattern) {
    return new Builder(root, pattern);
  }

  /** Builds a {@link RepositoryGlobRequest}. */
  public static final class Builder extends WalkPageBuilder<Builder> {
    private final Path root;
    private final String pattern;
    private boolean braceExpansion;

    private Builder(Path root, String pattern) {
      this.root = root;
      this.pattern = pattern;
    }

    @Override
    Builder self() {
      return this;
    }

    public Builder braceExpansion(boolean value) {
      this.braceExpansion = value;
      return this;
    }

    public RepositoryGlobRequest build() {
      return new RepositoryGlobRequest(root, pattern, path, includeHidden, exclude, maxDepth,
          maxResults, offset, braceExpansion, signal, deadlineMs);
    }
  }
}
