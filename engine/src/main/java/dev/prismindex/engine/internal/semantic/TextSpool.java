package dev.prismindex.engine.internal.semantic;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The texts of the chunks a run wrote without a vector, kept in memory (up to a budget of
 * characters) from the lexical phase to the embedding phase, so the files need not be read and
 * parsed again: re-chunking cost as much CPU as a tenth of the model's time on a cold index. Texts
 * over the budget are simply not kept; the embedding phase re-reads their files. Keyed by the
 * text's hash, so a kept text is exactly the text of every chunk with that key. Thread-safe.
 */
public final class TextSpool {

  /** The default budget: 16 Mi characters (at most 32 MiB of strings). */
  public static final long DEFAULT_BUDGET_CHARS = 16L * 1024 * 1024;

  private final long budget;
  private final AtomicLong used = new AtomicLong();
  private final Map<BytesRef, String> texts = new ConcurrentHashMap<>();

  public TextSpool(long budgetChars) {
    this.budget = budgetChars;
  }

  /** Keeps {@code text} under {@code hash} if the budget allows. */
  public void offer(BytesRef hash, String text) {
    if (texts.containsKey(hash)) {
      return;
    }
    long after = used.addAndGet(text.length());
    if (after > budget) {
      used.addAndGet(-text.length());
      return;
    }
    if (texts.putIfAbsent(hash, text) != null) {
      used.addAndGet(-text.length());
    }
  }

  /** The kept text of {@code hash}, if any. */
  public @Nullable String get(BytesRef hash) {
    return texts.get(hash);
  }

  /** The number of texts kept. */
  public int size() {
    return texts.size();
  }
}
