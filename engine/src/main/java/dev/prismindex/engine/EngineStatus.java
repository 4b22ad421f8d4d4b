package dev.prismindex.engine;

import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the last commit of the index records, plus its size on disk and whether this process can
 * search it semantically.
 *
 * @param home the index home directory
 * @param hasCommit whether any commit exists (false for a new index)
 * @param files indexed files (FILE documents)
 * @param chunks indexed chunks (CHUNK documents)
 * @param sourceRevision git HEAD, the revision of the last seam update, or a digest of the manifest
 * @param updatedAt when the lexical documents were last committed (vector-only commits keep it)
 * @param sizeOnDiskBytes bytes of the Lucene files of the last commit
 * @param formatVersion the index format version recorded
 * @param analyzerVersion the analyzer version recorded
 * @param embedderId the embedding model of the index's vectors ({@code null}: no vectors yet)
 * @param embedderDimension the vector dimension recorded (0: no vectors yet)
 * @param chunksEmbedded chunks whose text has a vector (see {@link #coverage()})
 * @param vectors vectors in the index: one per distinct chunk text embedded, including texts no
 *     chunk uses any more (the embedding cache)
 * @param semantic whether this process can run SEMANTIC and HYBRID queries on this index
 * @param semanticMessage why not ({@code null} when {@link SemanticState#AVAILABLE}); the message
 *     {@link SemanticSearchUnavailableException} would carry
 */
public record EngineStatus(
    Path home,
    boolean hasCommit,
    long files,
    long chunks,
    @Nullable String sourceRevision,
    @Nullable Instant updatedAt,
    long sizeOnDiskBytes,
    @Nullable String formatVersion,
    @Nullable String analyzerVersion,
    @Nullable String embedderId,
    int embedderDimension,
    long chunksEmbedded,
    long vectors,
    SemanticState semantic,
    @Nullable String semanticMessage) {

  /** The status of the first engine version (no vectors, no model). */
  public EngineStatus(Path home, boolean hasCommit, long files, long chunks,
      @Nullable String sourceRevision, @Nullable Instant updatedAt, long sizeOnDiskBytes,
      @Nullable String formatVersion, @Nullable String analyzerVersion,
      @Nullable String embedderId, int embedderDimension) {
    this(home, hasCommit, files, chunks, sourceRevision, updatedAt, sizeOnDiskBytes,
        formatVersion, analyzerVersion, embedderId, embedderDimension, 0, 0,
        SemanticState.NO_MODEL, SemanticSearchUnavailableException.MESSAGE);
  }

  /**
   * The mode a search without one runs in (the command line's and the library's default): HYBRID
   * when this process can search the index's vectors (its model is the index's and the index has
   * vectors), else LEXICAL.
   */
  public SearchMode defaultMode() {
    return defaultMode(semantic, embedderId);
  }

  /** {@link #defaultMode()} of a commit in {@code state} whose vectors are {@code embedderId}'s. */
  public static SearchMode defaultMode(SemanticState state, @Nullable String embedderId) {
    return state == SemanticState.AVAILABLE && embedderId != null && !embedderId.isEmpty()
        ? SearchMode.HYBRID : SearchMode.LEXICAL;
  }

  /** Chunks with a vector out of all chunks. */
  public SemanticCoverage coverage() {
    return new SemanticCoverage(chunks, Math.min(chunks, chunksEmbedded));
  }
}
