package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link Indexer} run does about its chunks' vector keys (the BLAKE3 hash of the text a
 * chunk is embedded as, {@link EmbedText}): whether it writes them at all (a lexical-only index
 * does without, so no text is built or hashed per chunk), whether it rewrites every file to add them
 * ({@code rekey}: a lexical-only index about to get vectors), and, for the chunks it keys, counting
 * those whose text already has a vector and passing on the others' texts to embed. Thread-safe.
 */
public final class ChunkKeys {

  private final boolean write;
  private final boolean rekey;
  private final int keyBytes;
  private final @Nullable Predicate<BytesRef> hasVector;
  private final @Nullable BiConsumer<BytesRef, String> unembedded;
  private final AtomicLong reused = new AtomicLong();

  /**
   * @param write whether chunks carry their keys
   * @param rekey whether every file of the manifest is rewritten with keys even when unchanged
   * @param keyBytes the length of a key ({@link Schema#chunkKeyBytes})
   * @param hasVector whether a key already has a vector (the embedding cache), or null to count
   *     nothing
   * @param unembedded receives the key and the text of every keyed chunk without a vector, or null
   * @throws IllegalArgumentException when {@code rekey} without {@code write}
   */
  public ChunkKeys(boolean write, boolean rekey, int keyBytes,
      @Nullable Predicate<BytesRef> hasVector, @Nullable BiConsumer<BytesRef, String> unembedded) {
    if (rekey && !write) {
      throw new IllegalArgumentException("rekeying writes keys");
    }
    this.write = write;
    this.rekey = rekey;
    this.keyBytes = keyBytes;
    this.hasVector = hasVector;
    this.unembedded = unembedded;
  }

  /**
   * Every chunk keyed with 32-byte keys, nothing counted or passed on (a store that always keys its
   * chunks: the search cluster, whose format keeps the whole BLAKE3-256).
   */
  public static ChunkKeys always() {
    return new ChunkKeys(true, false, 32, null, null);
  }

  /** The length of a key in bytes. */
  public int keyBytes() {
    return keyBytes;
  }

  /** Whether the chunks carry their keys. */
  public boolean written() {
    return write;
  }

  /** Whether every file is rewritten with keys, changed or not. */
  boolean rekey() {
    return rekey;
  }

  /** Chunks keyed so far whose text already had a vector. */
  long reused() {
    return reused.get();
  }

  /** The key of each of a file's chunks, in chunk order, or null when keys are not written. */
  @Nullable List<byte[]> of(String path, List<Chunk> chunks) {
    if (!write) {
      return null;
    }
    List<byte[]> keys = new ArrayList<>(chunks.size());
    for (Chunk c : chunks) {
      String embedded = EmbedText.of(path, c);
      byte[] h = Hashing.chunkKey(embedded, keyBytes);
      keys.add(h);
      BytesRef key = new BytesRef(h);
      if (hasVector != null && hasVector.test(key)) {
        reused.incrementAndGet();
      } else if (unembedded != null) {
        unembedded.accept(key, embedded);
      }
    }
    return keys;
  }
}
