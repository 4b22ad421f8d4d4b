package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.internal.walk.WalkedFile;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.repository.RepositoryLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one stat check of a file against the manifest, shared by the indexer and the staleness probe:
 * one {@code lstat} (never following links), the walk's ({@link WalkedFile}) or one of its own,
 * gives the size and modification time, or why the file cannot be indexed (gone, unreadable, not a
 * regular file, over the exact-search cap {@link #exactCap}). A file over {@code maxFileBytes} but
 * within the exact-search cap is indexable: the indexer gives it n-grams for literal and regex
 * search only, no chunks.
 *
 * @param size the size in bytes (0 unless {@link #indexable()})
 * @param mtimeNs the modification time in epoch nanoseconds (0 unless {@link #indexable()})
 * @param skip why the file is skipped, or null (also null when it is gone)
 * @param gone whether the file no longer exists
 * @param error the stat failure behind {@link SkipReason#UNREADABLE}, for a log line
 */
public record FileStat(long size, long mtimeNs, @Nullable SkipReason skip, boolean gone,
    @Nullable String error) {

  /**
   * The largest file exact search (literal, regex) covers, given the index's ranking cap
   * {@code maxFileBytes}: the core scanner's default
   * ({@link RepositoryLimits#DEFAULT_MAX_SEARCH_FILE_BYTES}, 8 MiB), so an indexed answer covers
   * the files an unindexed one (and ripgrep) does, or {@code maxFileBytes} when that is larger.
   */
  public static long exactCap(long maxFileBytes) {
    return Math.max(maxFileBytes, RepositoryLimits.DEFAULT_MAX_SEARCH_FILE_BYTES);
  }

  /**
   * Stats {@code path} below {@code root} without following links: unreadable when this JVM cannot
   * name it ({@link FileNames}).
   */
  public static FileStat of(Path root, String path, long maxFileBytes) {
    Path file = FileNames.resolve(root, path);
    return file == null
        ? new FileStat(0, 0, SkipReason.UNREADABLE, false, "a name this JVM cannot encode")
        : of(file, maxFileBytes);
  }

  /** Stats {@code file} without following links. */
  public static FileStat of(Path file, long maxFileBytes) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return new FileStat(0, 0, null, true, null);
    } catch (IOException e) {
      return new FileStat(0, 0, SkipReason.UNREADABLE, false, e.toString());
    }
    if (!a.isRegularFile()) {
      return new FileStat(0, 0, SkipReason.NOT_REGULAR, false, null);
    }
    if (a.size() > exactCap(maxFileBytes)) {
      return new FileStat(0, 0, SkipReason.OVERSIZE, false, null);
    }
    return new FileStat(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS), null, false, null);
  }

  /**
   * The stat data a walk read for {@code file} (a regular file then): over the size cap it is
   * skipped (over {@link #exactCap}), like {@link #of(Path, long)} would say of the same
   * {@code lstat}.
   */
  public static FileStat of(WalkedFile file, long maxFileBytes) {
    if (file.size() > exactCap(maxFileBytes)) {
      return new FileStat(0, 0, SkipReason.OVERSIZE, false, null);
    }
    return new FileStat(file.size(), file.mtimeNs(), null, false, null);
  }

  /** Whether the file exists and may be read for indexing. */
  public boolean indexable() {
    return !gone && skip == null;
  }

  /** Whether size and mtime equal the recorded ones (what the probe reports as unchanged). */
  public boolean matches(FileEntry recorded) {
    return recorded.statMatches(size, mtimeNs);
  }

  /** Whether size and mtime equal those of a file remembered as skipped by its content. */
  public boolean matches(SkippedFile recorded) {
    return recorded.size() == size && recorded.mtimeNs() == mtimeNs;
  }

  /** Whether the stat data proves the content unchanged (git's racy-timestamp rule). */
  public boolean provesUnchanged(FileEntry recorded) {
    return recorded.statProvesUnchanged(size, mtimeNs);
  }
}
