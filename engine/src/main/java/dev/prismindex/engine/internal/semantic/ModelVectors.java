package dev.prismindex.engine.internal.semantic;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.ChunkVectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * This process's model as a plugged store sees it ({@link ChunkVectors}): the kernel's embedded
 * text ({@link EmbedText}) and unit vectors ({@link EmbeddingRun#unit}), with a count of the texts
 * embedded for the run's statistics.
 */
public final class ModelVectors implements ChunkVectors {

  private final Embedder model;
  private final AtomicLong embedded = new AtomicLong();

  public ModelVectors(Embedder model) {
    this.model = model;
  }

  @Override
  public String modelId() {
    return model.id();
  }

  @Override
  public int dimension() {
    return model.dimension();
  }

  @Override
  public int batchSize() {
    return EmbeddingRun.BATCH;
  }

  @Override
  public String text(String path, Chunk chunk) {
    return EmbedText.of(path, chunk);
  }

  /** @throws dev.prismindex.engine.SemanticSearchUnavailableException when the model fails */
  @Override
  public List<float @Nullable []> embed(List<String> texts) throws IOException {
    List<float[]> vectors;
    try {
      vectors = model.embed(texts);
    } catch (EmbeddingException e) {
      throw SemanticAvailability.modelFailed(e);
    }
    List<float @Nullable []> out = new ArrayList<>(vectors.size());
    for (float[] v : vectors) {
      float[] unit = EmbeddingRun.unit(v, model.dimension());
      out.add(zero(unit) ? null : unit);
    }
    embedded.addAndGet(texts.size());
    return out;
  }

  /** The texts embedded so far. */
  public long embedded() {
    return embedded.get();
  }

  private static boolean zero(float[] v) {
    for (float x : v) {
      if (x != 0f) {
        return false;
      }
    }
    return true;
  }
}
