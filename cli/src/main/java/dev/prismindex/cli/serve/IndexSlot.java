package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.IndexAccess;
import dev.prismindex.cli.command.Target;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IndexWatch;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open index of one target of a {@link WarmBackend} and the leases on it. {@link #use}:
 * read-held by every call using the index, write-held to open, reopen or close it. {@link #writes}:
 * held by the one write of this process at a time.
 */
final class IndexSlot {

  private static final Logger LOG = LoggerFactory.getLogger(WarmBackend.class);

  /** How often a waiting catch-up looks whether an indexing run has taken the index meanwhile. */
  private static final long POLL_MS = 50;

  final ReentrantReadWriteLock use = new ReentrantReadWriteLock();
  final ReentrantLock writes = new ReentrantLock();
  volatile boolean indexing;
  volatile @Nullable HybridIndex index;
  /** The commit generation the index saw last (after its own writes), -1 for none. */
  volatile long generation = -1;
  /** Whether a watch was started (or tried) for this target. */
  final AtomicBoolean watchStarted = new AtomicBoolean();
  volatile @Nullable IndexWatch watch;
  /** The thread starting {@link #watch}, once one was started. */
  volatile @Nullable Thread watchStarter;
  volatile @Nullable String watchFailure;

  /**
   * Whether another process committed since this index last looked: compared only while no write
   * of this process runs (its own commits are seen by the engine already).
   */
  boolean outdated(Target target) throws IOException {
    return !writes.isLocked() && HybridIndex.commitGeneration(target.home()) != generation;
  }

  /**
   * Takes the right to write for a watch's refresh, waiting for any write of this process. Unlike
   * an indexing run ({@link IndexAccess.Lease#write}) it is a catch-up: a search's catch-up ({@link
   * IndexAccess.Lease#tryWrite}) waits for it, then finds those changes indexed, instead of
   * answering from the previous commit. Given back by the lease's {@code endWrite}.
   *
   * @throws InterruptedIOException when interrupted while waiting
   */
  void catchUp() throws InterruptedIOException {
    try {
      writes.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to write the index");
    }
  }

  /** A lease on the open index; the caller holds {@link #use}'s read lock, which it releases. */
  IndexAccess.Lease lease(Target target) {
    return new Lease(this, target, index);
  }

  private static final class Lease implements IndexAccess.Lease {
    private final IndexSlot slot;
    private final Target target;
    private final HybridIndex index;
    private boolean closed;

    Lease(IndexSlot slot, Target target, @Nullable HybridIndex index) {
      this.slot = slot;
      this.target = target;
      this.index = Objects.requireNonNull(index, "index");
    }

    @Override
    public HybridIndex index() {
      return index;
    }

    @Override
    public @Nullable IndexWatch watch() {
      return slot.watch;
    }

    @Override
    public boolean tryWrite() throws IOException {
      try {
        while (!slot.writes.tryLock(POLL_MS, TimeUnit.MILLISECONDS)) {
          if (slot.indexing) {
            return false;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting to catch up");
      }
      return true;
    }

    @Override
    public void write() throws IOException {
      slot.catchUp();
      slot.indexing = true;
    }

    @Override
    public void endWrite() {
      slot.indexing = false;
      try {
        slot.generation = HybridIndex.commitGeneration(target.home());
      } catch (IOException e) {
        LOG.debug("cannot read the commit generation of {}", target.home(), e);
        slot.generation = -1;
      } finally {
        slot.writes.unlock();
      }
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        slot.use.readLock().unlock();
      }
    }
  }
}
