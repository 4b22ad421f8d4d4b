package dev.prismindex.engine.internal.semantic;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.store.Documents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embeds chunk texts with a {@link Embedder.Kind#STATIC} model as the indexer writes their chunks,
 * on the indexer's own worker threads, and adds one VECTOR document per distinct text to the same
 * writer, so the vectors are committed with the lexical documents (one commit, one crash-safe
 * step) and no file is read or chunked again after the lexical commit. The texts it is given are
 * those without a vector in the last commit (the embedding cache, by chunk-text key); a text two
 * chunks of the run share is embedded once.
 *
 * <p>A model that fails does not fail the run: the chunks from then on get no vector, the lexical
 * documents and the vectors added so far are committed, and {@link #failure()} is raised after
 * the commit, as a failure of the embedding phase after a lexical commit is. Thread-safe.
 */
public final class InlineVectors {

  private static final Logger LOG = LoggerFactory.getLogger(InlineVectors.class);

  private final Embedder model;
  private final IndexWriter writer;
  private final VectorCode code;
  private final Clock clock;
  private final Set<BytesRef> added = ConcurrentHashMap.newKeySet();
  private final AtomicLong texts = new AtomicLong();
  private final AtomicLong chunks = new AtomicLong();
  private volatile @Nullable SemanticSearchUnavailableException failure;

  /**
   * @param model a static model
   * @param code how the index codes its vectors ({@link VectorCode#of})
   */
  public InlineVectors(Embedder model, IndexWriter writer, VectorCode code, Clock clock) {
    if (model.kind() != Embedder.Kind.STATIC) {
      throw new IllegalArgumentException("not a static model: " + model.id());
    }
    this.model = model;
    this.writer = writer;
    this.code = code;
    this.clock = clock;
  }

  /** The model. */
  public Embedder model() {
    return model;
  }

  /**
   * Gives the chunk whose embedded text is {@code text} (key {@code key}) a vector, unless a chunk
   * of this run already gave its text one.
   *
   * @throws UncheckedIOException when the writer refuses the vector (the run fails)
   */
  public void add(BytesRef key, String text) {
    if (failure != null) {
      return;
    }
    if (!added.add(key)) {
      chunks.incrementAndGet();
      return;
    }
    float[] vector;
    try {
      List<float[]> out = model.embed(List.of(text));
      vector = EmbeddingRun.unit(out.get(0), model.dimension());
    } catch (EmbeddingException | IllegalStateException e) {
      added.remove(key);
      fail(e);
      return;
    }
    try {
      writer.addDocument(Documents.vector(
          Arrays.copyOfRange(key.bytes, key.offset, key.offset + key.length), vector, clock.millis(), code));
    } catch (IOException e) {
      added.remove(key);
      throw new UncheckedIOException(e);
    }
    texts.incrementAndGet();
    chunks.incrementAndGet();
  }

  private synchronized void fail(RuntimeException e) {
    if (failure == null) {
      LOG.warn("the model {} failed; the chunks indexed from now on have no vector: {}",
          model.id(), e.toString());
      failure = e instanceof EmbeddingException ee ? SemanticAvailability.modelFailed(ee)
          : SemanticAvailability.modelFailed(new EmbeddingException(String.valueOf(
              e.getMessage()), e));
    }
  }

  /** Distinct texts embedded (= VECTOR documents added). */
  public long textsEmbedded() {
    return texts.get();
  }

  /** Chunks written with a vector added by this run. */
  public long chunksCovered() {
    return chunks.get();
  }

  /** The model's failure, if it failed. */
  public @Nullable SemanticSearchUnavailableException failure() {
    return failure;
  }
}
