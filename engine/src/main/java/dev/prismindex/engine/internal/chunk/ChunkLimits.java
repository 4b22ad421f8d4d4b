package dev.prismindex.engine.internal.chunk;

/**
 * Chunk size bounds. A chunk stays under {@value #MAX_LINES} lines and {@value #MAX_CHARS} characters
 * (unless one line alone is longer) so that a small embedding model (256-512 tokens) sees all of it;
 * neighbours under {@value #TINY_LINES} lines or {@value #TINY_CHARS} characters are merged.
 */
public final class ChunkLimits {
  public static final int MAX_LINES = 60;
  public static final int MAX_CHARS = 1500;
  public static final int TINY_LINES = 4;
  public static final int TINY_CHARS = 160;

  private ChunkLimits() {}
}
