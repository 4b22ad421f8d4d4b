package dev.prismindex.engine.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A piece of a file that is indexed (and, later, embedded) on its own.
 *
 * @param startLine 1-based first line
 * @param endLine 1-based last line (inclusive)
 * @param symbols the definitions the chunk belongs to, in line order (empty for plain windows): a
 *     definition's chunk lists the definition first, then the definitions nested in it; a window of
 *     a long definition, or the lines of a type between its members, list the definition/type
 * @param parent the name of the type (class, interface, impl, trait, module...) the chunk's code
 *     sits in, or null at the top level of the file
 * @param text the chunk's lines joined with {@code \n}
 */
public record Chunk(int startLine, int endLine, List<Symbol> symbols, @Nullable String parent,
    String text) {

  /**
   * A definition name and its header line.
   *
   * @param name the symbol's name as written in the source
   * @param line 1-based line of the definition's name (its header: {@code fn}, {@code def},
   *     the method's signature), not of its doc comment, annotations or attributes
   */
  public record Symbol(String name, int line) {}

  public Chunk {
    symbols = List.copyOf(symbols);
  }

  /** The main symbol (the first), if any. */
  public @Nullable Symbol primary() {
    return symbols.isEmpty() ? null : symbols.get(0);
  }

  /**
   * Whether the chunk holds the header line of its main symbol (a definition's chunk, or the first
   * window of a long one), as opposed to a window inside a definition or a type.
   */
  public boolean hasHeader() {
    Symbol p = primary();
    return p != null && p.line() >= startLine && p.line() <= endLine;
  }
}
