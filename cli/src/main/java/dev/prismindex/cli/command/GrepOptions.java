package dev.prismindex.cli.command;

import dev.prismindex.cli.output.Layout;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What grep's output habits change about a command-line {@code search}: the layout of human output
 * ({@code -n}, {@code -l}, {@code -c}), colour ({@code --color}) and a cap on the hits of each file
 * ({@code -m}). NDJSON ({@code --json}) is not affected but by the cap: it prints hits, each one
 * object.
 *
 * @param layout how human output shows the hits
 * @param colour when human output is coloured
 * @param maxPerFile at most this many hits from each file ({@code -m NUM}), or null for no cap
 */
public record GrepOptions(Layout layout, Colour colour, @Nullable Integer maxPerFile) {

  /** No habit asked for: blocks, colour on a terminal, no cap. */
  public static final GrepOptions NONE = new GrepOptions(Layout.BLOCKS, Colour.AUTO, null);

  public GrepOptions {
    if (maxPerFile != null && maxPerFile < 1) {
      throw new IllegalArgumentException("maxPerFile must be positive: " + maxPerFile);
    }
  }

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
