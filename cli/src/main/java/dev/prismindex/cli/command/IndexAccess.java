package dev.prismindex.cli.command;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexWatch;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * How {@link LocalBackend} reaches the {@link HybridIndex} of a target: opened for one call and
 * closed after it ({@link #PER_CALL}, the one-shot CLI), or kept open across calls
 * ({@link dev.prismindex.cli.serve.WarmBackend}, the resident server and the MCP server). The backend's logic is the same
 * either way; only the lifetime of the index and the coordination of writes differ.
 */
public interface IndexAccess {

  /**
   * Opens the index of {@code target}, or lends an open one, until {@link Lease#close()}. Like
   * {@link HybridIndex#open}, creates the index home when missing (callers check existence first).
   *
   * @throws dev.prismindex.engine.IncompatibleIndexException as {@link HybridIndex#open}
   * @throws dev.prismindex.engine.CorruptIndexException as {@link HybridIndex#open}
   * @throws IOException when the index cannot be opened
   */
  Lease open(Target target, HybridIndexOptions options) throws IOException;

  /** One call's use of an index; closed by the thread that opened it. */
  interface Lease extends AutoCloseable {

    /** The index, open until {@link #close()}. */
    HybridIndex index();

    /**
     * The watch keeping this index current, when there is one: a search asks it what changed
     * instead of walking the tree.
     */
    default @Nullable IndexWatch watch() {
      return null;
    }

    /**
     * Takes the right to write for a search's catch-up, waiting for another catch-up but not for
     * an indexing run of this process.
     *
     * @return false when an indexing run holds the index (the catch-up is skipped, as when another
     *     process writes it)
     * @throws java.io.InterruptedIOException when interrupted while waiting
     */
    boolean tryWrite() throws IOException;

    /**
     * Takes the right to write for an indexing run, waiting for any write of this process.
     *
     * @throws java.io.InterruptedIOException when interrupted while waiting
     */
    void write() throws IOException;

    /** Gives back the right taken by {@link #tryWrite()} (when true) or {@link #write()}. */
    void endWrite();

    /** Closes the index, or gives it back to whoever keeps it open. */
    @Override
    void close() throws IOException;
  }

  /** Opens the index for each call and closes it after; writes need no coordination in-process. */
  IndexAccess PER_CALL = (target, options) -> {
    HybridIndex index = HybridIndex.open(options);
    return new Lease() {
      @Override
      public HybridIndex index() {
        return index;
      }

      @Override
      public boolean tryWrite() {
        return true;
      }

      @Override
      public void write() {}

      @Override
      public void endWrite() {}

      @Override
      public void close() throws IOException {
        index.close();
      }
    };
  };
}
