package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.SkipReason;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tally of one {@link Indexer} run, bumped from its worker threads; {@link #snapshot} reads it
 * as {@link Indexer.Counters}.
 */
final class RunCounters {
  final AtomicInteger hashed = new AtomicInteger();
  final AtomicInteger added = new AtomicInteger();
  final AtomicInteger changed = new AtomicInteger();
  final AtomicInteger deleted = new AtomicInteger();
  final AtomicInteger unchanged = new AtomicInteger();
  final AtomicInteger restat = new AtomicInteger();
  final AtomicLong chunksWritten = new AtomicLong();
  /** SKIPPED documents added, replaced or deleted. */
  final AtomicInteger skipWrites = new AtomicInteger();
  private final Map<SkipReason, AtomicInteger> skipped = new ConcurrentHashMap<>();

  /** Counts one file left out for {@code reason}. */
  void skip(SkipReason reason) {
    skipped.computeIfAbsent(reason, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Adds skips counted elsewhere (by the walk). */
  void skips(Map<SkipReason, Integer> counts) {
    counts.forEach((k, v) -> skipped.computeIfAbsent(k, x -> new AtomicInteger()).addAndGet(v));
  }

  /** The counters so far; {@code chunksReused} is the run's chunk keys' count. */
  Indexer.Counters snapshot(long chunksReused) {
    Map<SkipReason, Integer> s = new EnumMap<>(SkipReason.class);
    skipped.forEach((k, v) -> s.put(k, v.get()));
    return new Indexer.Counters(hashed.get(), added.get(), changed.get(), deleted.get(),
        unchanged.get(), restat.get(), s, chunksWritten.get(), chunksReused, skipWrites.get());
  }
}
