package dev.prismindex.engine;

/**
 * A snapshot of a running {@link HybridIndex#refresh}, for progress displays.
 *
 * @param phase what the run is doing
 * @param filesDone files checked so far in this run (unchanged, indexed or skipped)
 * @param filesTotal files the walk produced (0 while walking)
 * @param chunksEmbedded distinct chunk texts embedded so far in this run
 * @param chunksToEmbed distinct chunk texts this run will embed (0 before {@link Phase#EMBEDDING})
 * @param elapsedMs wall time since the run started
 */
public record IndexProgress(Phase phase, int filesDone, int filesTotal, long chunksEmbedded,
    long chunksToEmbed, long elapsedMs) {

  /** The phases of a refresh, in order (a run may skip any but the first and the last). */
  public enum Phase {
    /** Listing the repository's files. */
    WALKING,
    /** Hashing changed files, chunking and writing lexical documents. */
    INDEXING,
    /** Committing the lexical documents (searchable once this phase ends). */
    COMMITTING,
    /** Embedding the chunks that have no vector yet, committing vectors periodically. */
    EMBEDDING,
    /** The run finished (the last callback of a successful run). */
    DONE
  }
}
