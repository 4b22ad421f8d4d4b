package dev.prismindex.engine.spi;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a commit records about the index, as the kernel writes it ({@link StoreWrite#commit}) and
 * reads it back ({@link Store#record()}, {@link StoreReader#commit()}): string values under the
 * keys below. A store keeps them verbatim where it can (the local index in its Lucene commit); a
 * store with a fixed layout keeps at least {@link #REVISION}, {@link #UPDATED_AT}, {@link #FILES},
 * {@link #CHUNKS} and {@link #SKIPPED}, and reports the layout it was created with ({@link
 * #FORMAT}, {@link #ANALYZER}, {@link #EMBEDDER_ID}, {@link #EMBEDDER_DIM}).
 *
 * @param values the values by key (unknown keys are kept and ignored)
 */
public record CommitRecord(Map<String, String> values) {

  /** The store's format (its own name and version; a reader refuses a format it does not know). */
  public static final String FORMAT = "prism.format";
  /** The version of the analyzer the ranked fields were analyzed with. */
  public static final String ANALYZER = "prism.analyzer";
  /** The id of the model the vectors come from; empty when the index holds none. */
  public static final String EMBEDDER_ID = "prism.embedder.id";
  /** The vectors' dimension ({@code 0} without a model). */
  public static final String EMBEDDER_DIM = "prism.embedder.dim";
  /** The source revision the commit indexed (a git commit, or a digest of the manifest). */
  public static final String REVISION = "prism.revision";
  /** When the commit was made, epoch milliseconds: present once a write committed. */
  public static final String UPDATED_AT = "prism.updatedAt";
  /** How many files the manifest holds. */
  public static final String FILES = "prism.files";
  /** How many chunks the index holds. */
  public static final String CHUNKS = "prism.chunks";
  /** How many of them have a vector. */
  public static final String CHUNKS_EMBEDDED = "prism.chunks.embedded";
  /** The files the last whole walk left out, by reason: {@code binary=2,secret=1}. */
  public static final String SKIPPED = "prism.skipped";
  /**
   * {@code stored} when the store keeps a copy of each indexed file's content ({@link
   * StoreReader#content}), which a search without the working tree verifies its hits against.
   */
  public static final String CONTENT = "prism.content";
  /** A fingerprint of the file rules the indexed files were judged by. */
  public static final String RULES = "prism.rules";

  /** No record. */
  public static final CommitRecord EMPTY = new CommitRecord(Map.of());

  public CommitRecord {
    values = Map.copyOf(values);
  }

  /** The value of {@code key}, or null. */
  public @Nullable String get(String key) {
    return values.get(key);
  }

  /** Whether a write committed (the record has {@link #UPDATED_AT}). */
  public boolean committed() {
    return values.containsKey(UPDATED_AT);
  }

  /** The commit's time (epoch ms), or null before the first commit. */
  public @Nullable Long updatedAtMs() {
    String v = values.get(UPDATED_AT);
    return v == null || v.isEmpty() ? null : Long.parseLong(v);
  }

  /** A count ({@link #FILES}, {@link #CHUNKS}, ...), 0 when absent. */
  public long count(String key) {
    String v = values.get(key);
    return v == null || v.isEmpty() ? 0 : Long.parseLong(v);
  }

  /** The id of the model the index's vectors come from, empty when it holds none. */
  public String embedderId() {
    return values.getOrDefault(EMBEDDER_ID, "");
  }
}
