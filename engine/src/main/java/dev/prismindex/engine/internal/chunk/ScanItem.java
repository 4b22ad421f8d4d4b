package dev.prismindex.engine.internal.chunk;

/**
 * One node a definition scan reports ({@link NativeDefinitions}, {@link BindingDefinitions}): a
 * definition with its name's range, or (not {@code definition}) the token tree of a Rust item
 * macro. Bytes are offsets in the file's UTF-8, rows 0-based.
 */
record ScanItem(boolean definition, int startByte, int endByte, int startRow, int endRow,
    int nameStart, int nameEnd, int nameRow, boolean container) {}
