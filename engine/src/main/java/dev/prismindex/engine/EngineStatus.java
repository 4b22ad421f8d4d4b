package dev.prismindex.engine;

import java.nio.file.Path;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the last commit of the index records, plus its size on disk.
 *
 * @param home the index home directory
 * @param hasCommit whether any commit exists (false for a new index)
 * @param files indexed files (FILE documents)
 * @param chunks indexed chunks (CHUNK documents)
 * @param sourceRevision git HEAD, the revision of the last seam update, or a digest of the manifest
 * @param updatedAt when the last commit was written
 * @param sizeOnDiskBytes bytes of the Lucene files of the last commit
 * @param formatVersion the index format version recorded
 * @param analyzerVersion the analyzer version recorded
 * @param embedderId the embedding model recorded ({@code null}: no vectors)
 * @param embedderDimension the vector dimension recorded (0: no vectors)
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
    int embedderDimension) {}
