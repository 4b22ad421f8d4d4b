package dev.prismindex.engine.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One repository's index in a store: where the kernel ({@code HybridIndex}) puts the documents of
 * its runs and takes the candidates of its searches from. A store holds one repository and
 * nothing else; a second repository is a second store (several can share one cluster or one
 * process: nothing here is global).
 *
 * <p>The kernel calls it from one run at a time ({@link #beginWrite}; the kernel serialises its
 * runs) and from any number of searches at once ({@link #reader}), so implementations are
 * thread-safe. The store owns its connections: {@link #close} releases them and keeps the index.
 *
 * <p>Errors: an unreachable or refusing store is an {@link IOException} (a subclass saying which,
 * with a message fit for a person); an index the store cannot use (another format) is the
 * engine's {@code IncompatibleIndexException}, thrown by the implementation's factory.
 */
public interface Store extends Closeable {

  /** Where the index lives, for messages: {@code "cluster index prism-x-1a2b3c4d at [...]"}. */
  String describe();

  /**
   * What the store records about its index: the values the kernel gave the last {@link
   * StoreWrite#commit} (at least the {@link CommitRecord} keys the store keeps) and the layout the
   * index was created with ({@link CommitRecord#FORMAT}, {@link CommitRecord#ANALYZER}, {@link
   * CommitRecord#EMBEDDER_ID}, {@link CommitRecord#EMBEDDER_DIM}); null when the store has no
   * index for this repository yet, or no write ever began.
   *
   * @throws IOException when the store cannot be read
   */
  @Nullable CommitRecord record() throws IOException;

  /**
   * The manifest of the last commit: the entry of every indexed file, by path.
   *
   * @param scope repository-relative paths (files or directories): only entries equal to or below
   *     one of them; null for all
   * @throws IOException when the store cannot be read
   */
  Map<String, FileEntry> files(@Nullable Set<String> scope) throws IOException;

  /**
   * The files the last commit remembers as left out by their content ({@link SkippedFile}), by
   * path, restricted to {@code scope} as {@link #files}.
   *
   * @throws IOException when the store cannot be read
   */
  Map<String, SkippedFile> skipped(@Nullable Set<String> scope) throws IOException;

  /**
   * Begins the one write of a run: creates the index when it does not exist (pinning {@code
   * spec}'s model, or none), and records that a write is under way, so that a write that never
   * commits is seen by the next one ({@link StoreWrite#resumed()}) and by {@link #health()}.
   *
   * @throws IOException when the store cannot be written
   */
  StoreWrite beginWrite(WriteSpec spec) throws IOException;

  /**
   * A reader of the last commit, for one search: the candidates of each signal and what the
   * kernel needs to turn them into hits. Never null; over a store without an index it finds
   * nothing.
   *
   * @throws IOException when the store cannot be read
   */
  StoreReader reader() throws IOException;

  /**
   * What the store can say about its index now: whether the documents match the last commit
   * record, and its size.
   *
   * @throws IOException when the store cannot be asked
   */
  StoreHealth health() throws IOException;

  /**
   * Deletes the repository's index (nothing else), so that the next write starts from nothing.
   *
   * @return whether there was one
   * @throws IOException when the store refuses
   */
  boolean drop() throws IOException;
}
