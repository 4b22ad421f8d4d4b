package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.io.IOException;
import java.nio.file.Path;

/** Where a walk, git's or the plain one, puts what it sees. */
abstract class WalkSink {

  void entered(String directory) throws IOException {}

  abstract void kept(WalkedFile file) throws IOException;

  void excluded(String path, boolean directory) throws IOException {}

  /** A file left out by a reason counted in the skip counts (it may be in the index). */
  void skipped(SkipReason reason) {}

  /** A directory not entered for the limits. */
  void limited(Path directory, String relative, SkipReason reason) throws IOException {
    excluded(relative, true);
  }

  /**
   * A regular file the walk found, with the stat data it read: kept unless the ignore files or
   * the name rules leave it out.
   */
  final void file(String rel, long size, long mtimeNs, FileRules rules, PrismIgnore ignore)
      throws IOException {
    if (ignore.ignored(rel, false)) {
      excluded(rel, false);
      return;
    }
    SkipReason reason = rules.skipByName(rel);
    if (reason != null && !FileRules.literalOnly(reason)) {
      skipped(reason);
      excluded(rel, false);
      return;
    }
    kept(new WalkedFile(rel, size, mtimeNs));
  }
}
