package dev.prismindex.cli.command;

import dev.prismindex.cli.output.Layout;
import java.util.Locale;

/**
 * What grep's output habits change about how a command-line {@code search} is printed: the layout
 * of human output ({@code -n}, {@code -l}, {@code -c}) and colour ({@code --color}). NDJSON
 * ({@code --json}) is not affected: it prints hits, each one object. (grep's {@code -m} changes
 * the search itself: {@link SearchRequest#maxPerFile()}.)
 *
 * @param layout how human output shows the hits
 * @param colour when human output is coloured
 */
public record GrepOptions(Layout layout, Colour colour) {

  /** No habit asked for: blocks, colour on a terminal. */
  public static final GrepOptions NONE = new GrepOptions(Layout.BLOCKS, Colour.AUTO);

  /** {@code --color WHEN}. */
  public enum Colour {
    /** On a terminal, unless {@code NO_COLOR} is set or {@code TERM} is {@code dumb}. */
    AUTO,
    /** Always, also piped and whatever {@code NO_COLOR} says (an explicit request wins). */
    ALWAYS,
    /** Never. */
    NEVER;

    /** The value on the command line. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether to colour stdout in {@code env}. */
    public boolean on(Environment env) {
      return switch (this) {
        case ALWAYS -> true;
        case NEVER -> false;
        case AUTO -> env.colour();
      };
    }
  }
}
