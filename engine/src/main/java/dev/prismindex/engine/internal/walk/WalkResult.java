package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a walk found.
 *
 * @param paths repository-relative paths of candidate files, sorted by {@link String#compareTo}
 * @param skipped files dropped by name rules or because they are not regular files
 * @param gitHead the commit id of git's HEAD when the root is in a git work tree with a commit
 */
public record WalkResult(List<String> paths, Map<SkipReason, Integer> skipped,
    @Nullable String gitHead) {}
