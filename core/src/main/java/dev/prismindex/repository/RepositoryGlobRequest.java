package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.Objects;

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
 * @param listing the walk and the page: the root (every result path is relative to it), the
 *     optional start below it, hidden names, excluded names, the deepest level walked, the page
 *     size and offset (counted in matching files), the signal and the deadline
 * @param pattern the glob, matched against the root-relative path of each file and its directories
 * @param braceExpansion whether {@code {a,b}} groups are expanded
 */
public record RepositoryGlobRequest(
    RepositoryListRequest listing,
    String pattern,
    boolean braceExpansion) {

  public RepositoryGlobRequest {
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(pattern, "pattern");
  }

  /** Starts a glob of {@code pattern} under {@code root}. */
  public static Builder builder(Path root, String pattern) {
    return new Builder(root, pattern);
  }

  /** Builds a {@link RepositoryGlobRequest}. */
  public static final class Builder extends WalkPageBuilder<Builder> {
    private final String pattern;
    private boolean braceExpansion;

    private Builder(Path root, String pattern) {
      super(root);
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
      return new RepositoryGlobRequest(listing(), pattern, braceExpansion);
    }
  }
}
