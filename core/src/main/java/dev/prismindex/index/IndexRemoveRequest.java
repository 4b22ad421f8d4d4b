package dev.prismindex.index;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Paths to drop from the index, at most {@code maxUpdateFiles}, each repository-relative.
 *
 * @param paths the paths to remove
 */
public record IndexRemoveRequest(@Nullable List<@Nullable String> paths) {

  /** A request removing {@code paths}. */
  public static IndexRemoveRequest of(List<String> paths) {
    return new IndexRemoveRequest(paths);
  }
}
