package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a walk found.
 *
 * @param files the candidate files with their stat data, sorted by path ({@link String#compareTo})
 * @param skipped files dropped by name rules or because they are not regular files
 * @param gitHead the commit id of git's HEAD when the root is in a git work tree with a commit
 */
public record WalkResult(List<WalkedFile> files, Map<SkipReason, Integer> skipped,
    @Nullable String gitHead) {

  /** The paths of {@link #files}, in the same order. */
  public List<String> paths() {
    List<String> out = new ArrayList<>(files.size());
    for (WalkedFile f : files) {
      out.add(f.path());
    }
    return out;
  }
}
