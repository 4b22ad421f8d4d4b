package dev.prismindex.engine.internal.codec;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.analysis.CodeSimilarity;
import dev.prismindex.engine.internal.store.Schema;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * How the engine's writers write: the codec (Lucene's default, with the engine's own formats for
 * the fields that need them) and the in-memory buffers of a run.
 */
public final class WriterSettings {

  private static final KnnVectorsFormat PACKED_VECTORS = new PackedVectorsFormat();
  private static final DocValuesFormat GRAM_INDEX = new GramIndexFormat();

  /**
   * Lucene's default codec, with {@link PackedVectorsFormat} for the {@link VectorCode#PACKED}
   * vector fields (int8 fields keep Lucene's HNSW format, M = 16, beam width 100) and {@link
   * GramIndexFormat} for {@link Schema#FILE_GRAMS}. Readers need nothing of it: a segment records
   * each field's format by name, and Lucene's service loader finds the engine's.
   */
  public static final Codec CODEC = new Lucene912Codec() {
    @Override
    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
      return VectorCode.PACKED.owns(field) ? PACKED_VECTORS
          : super.getKnnVectorsFormatForField(field);
    }

    @Override
    public DocValuesFormat getDocValuesFormatForField(String field) {
      return field.equals(Schema.FILE_GRAMS) ? GRAM_INDEX
          : super.getDocValuesFormatForField(field);
    }
  };

  /** Lucene's RAM buffer for the documents of all workers: the largest is flushed when it is full. */
  static final int RAM_BUFFER_MB = 32;

  /**
   * The most RAM one worker's in-memory segment holds before it is flushed, by the worker itself
   * while the others go on: workers that index at the same pace flush segments of about the same
   * size, so the last ones, flushed side by side at the end of a run, take about as long as each
   * other (with only the shared buffer, the last two segments of spring-framework were 22 MB and 5
   * MB, and one core idled while the larger was written).
   */
  static final int THREAD_BUFFER_MB = 12;

  private WriterSettings() {}

  /**
   * A writer's configuration: append mode, {@link #CODEC}, the buffers above, {@link
   * CodeSimilarity}. Commit on close is enabled so that closing after a successful run waits for
   * its merges and commits them; callers that must not commit (a failure, a run with nothing to
   * write) call {@code IndexWriter#rollback()} instead of closing.
   */
  public static IndexWriterConfig config(CodeAnalyzer analyzer) {
    return new IndexWriterConfig(analyzer)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
        .setRAMBufferSizeMB(RAM_BUFFER_MB)
        .setRAMPerThreadHardLimitMB(THREAD_BUFFER_MB)
        .setSimilarity(new CodeSimilarity())
        .setCommitOnClose(true)
        .setCodec(CODEC);
  }
}
