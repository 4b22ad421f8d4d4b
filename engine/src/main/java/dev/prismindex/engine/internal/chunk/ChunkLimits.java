package dev.prismindex.engine.internal.chunk;


/**
 * Chunk size bounds. A chunk stays under {@value #MAX_LINES} lines and {@value #MAX_CHARS} characters
 * (unless one line alone is longer), so that a small embedding model sees most of it (the bundled
 * MiniLM reads the first 128 word pieces, about 400-600 characters of code; a 512-token model all);
 * neighbours under {@value #TINY_LINES} lines or {@value #TINY_CHARS} characters are merged.
 */
public final class ChunkLimits {
  public static final int MAX_LINES = 60;
  public static final int MAX_CHARS = 1500;
  public static final int TINY_LINES = 4;
  public static final int TINY_CHARS = 160;

  private ChunkLimits() {}
}
