package dev.prismindex.engine.spi;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a store can say about its index now ({@link Store#health()}). The kernel turns it into the
 * seam's state: {@code DAMAGED} is {@code failed}, {@code STALE} is {@code stale} (not served
 * until a run completes the index), {@code SOUND} lets the commit record decide.
 *
 * @param condition the verdict
 * @param reason why, for a person (null when sound)
 * @param sizeBytes the bytes the index takes in the store (its primary copy), 0 when unknown
 */
public record StoreHealth(Condition condition, @Nullable String reason, long sizeBytes) {

  /** The verdicts. */
  public enum Condition {
    /** The documents are the ones the last commit record describes. */
    SOUND,
    /**
     * The documents may not be the ones the record describes: a write began and never committed,
     * or the store counts other documents. The next write completes the index.
     */
    STALE,
    /** The index cannot be read correctly (damaged files, a lost shard). */
    DAMAGED
  }

  public StoreHealth {
    Objects.requireNonNull(condition, "condition");
  }

  /** A sound index of {@code sizeBytes}. */
  public static StoreHealth sound(long sizeBytes) {
    return new StoreHealth(Condition.SOUND, null, sizeBytes);
  }
}
