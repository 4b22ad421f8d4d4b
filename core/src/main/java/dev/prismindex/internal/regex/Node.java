package dev.prismindex.internal.regex;

import java.util.List;
import java.util.Objects;

/**
 * The syntax tree of a parsed pattern ({@link RegexParser}), with every flag already applied: a
 * case-insensitive character is the set of its case-fold orbit, a class is one {@link CodePointSet}
 * without the line terminators, a group is its content. The matcher ({@link Program}) and the
 * engine's gram planner both read this tree, so they can never disagree about what a pattern means.
 */
public sealed interface Node {

  /** Matches the empty string. */
  record Empty() implements Node {}

  /** Matches one code point of {@code set} (never empty, never a line terminator). */
  record Chars(CodePointSet set) implements Node {
    public Chars {
      Objects.requireNonNull(set, "set");
    }
  }

  /** Matches its items one after another. */
  record Concat(List<Node> items) implements Node {
    public Concat {
      items = List.copyOf(items);
    }
  }

  /** Matches one of its items, preferring the earlier ones (leftmost-first). */
  record Alternate(List<Node> items) implements Node {
    public Alternate {
      items = List.copyOf(items);
    }
  }

  /**
   * Matches {@code item} at least {@code min} and at most {@code max} times ({@code -1}: no
   * bound), as many as possible when {@code greedy}, else as few.
   */
  record Repeat(Node item, int min, int max, boolean greedy) implements Node {
    public Repeat {
      Objects.requireNonNull(item, "item");
      if (min < 0 || max < -1 || (max >= 0 && max < min)) {
        throw new IllegalArgumentException("bad repetition {" + min + "," + max + "}");
      }
    }
  }

  /** Matches {@code item} and records where, as group {@code index} (1 or more). */
  record Capture(Node item, int index) implements Node {
    public Capture {
      Objects.requireNonNull(item, "item");
    }
  }

  /** A zero-width assertion. */
  record Assert(Kind kind) implements Node {
    public Assert {
      Objects.requireNonNull(kind, "kind");
    }
  }

  /** What an {@link Assert} requires of the position. */
  enum Kind {
    /** The start of the line ({@code ^}, {@code \A}). */
    LINE_START,
    /** The end of the line ({@code $}, {@code \z}). */
    LINE_END,
    /** A word character on exactly one side ({@code \b}). */
    WORD_BOUNDARY,
    /** Word characters on both sides or on neither ({@code \B}). */
    NOT_WORD_BOUNDARY,
    /** No word character before ({@code -w}'s start: ripgrep's {@code \b{start-half}}). */
    NOT_AFTER_WORD,
    /** No word character after ({@code -w}'s end: ripgrep's {@code \b{end-half}}). */
    NOT_BEFORE_WORD
  }
}
