package dev.prismindex.engine.internal.chunk;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A piece of a file that is indexed (and, later, embedded) on its own.
 *
 * @param startLine 1-based first line
 * @param endLine 1-based last line (inclusive)
 * @param symbols the definitions the chunk belongs to, in line order (empty for plain windows)
 * @param text the chunk's lines joined with {@code \n}
 */
public record Chunk(int startLine, int endLine, List<Symbol> symbols, String text) {

  /**
   * A definition name and the line it starts on.
   *
   * @param name the symbol's name as written in the source
   * @param line 1-based line of the definition
   */
  public record Symbol(String name, int line) {}

  public Chunk {
    symbols = List.copyOf(symbols);
  }

  /** The main symbol (the first), if any. */
  public @Nullable Symbol primary() {
    return symbols.isEmpty() ? null : symbols.get(0);
  }
}
