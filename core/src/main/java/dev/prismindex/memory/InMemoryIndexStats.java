package dev.prismindex.memory;

/**
 * Figures of an {@link InMemoryIndexBackend}: what it holds now and what its updates did so far.
 * Byte figures are computed from array lengths (with 16-byte array headers), not measured on the
 * heap; a benchmark measures the heap.
 *
 * @param files indexed files (live documents)
 * @param segments segments in the current snapshot
 * @param contentBytes bytes of file content held (the UTF-8 bytes as read)
 * @param pathBytes bytes of the encoded paths and their offsets
 * @param postingBytes bytes of the gram postings (keys, counts, offsets, lists)
 * @param vectorBytes bytes of the quantised vectors and their scales
 * @param totalBytes every byte above plus hashes, live bits and array headers
 * @param updates updates applied successfully
 * @param failedUpdates updates that failed (and left the index {@code failed})
 * @param filesIndexed files (re-)indexed because they were new or their content changed
 * @param filesUnchanged files skipped because their content hash (and bytes) were unchanged
 * @param filesDropped files dropped because the content source had no content for them (absent,
 *     not a regular file, a link, or oversize), or because they were binary
 * @param filesDeleted files removed by DELETE changes or {@code remove}
 * @param merges segment merges performed
 */
public record InMemoryIndexStats(
    long files,
    int segments,
    long contentBytes,
    long pathBytes,
    long postingBytes,
    long vectorBytes,
    long totalBytes,
    long updates,
    long failedUpdates,
    long filesIndexed,
    long filesUnchanged,
    long filesDropped,
    long filesDeleted,
    long merges) {}
