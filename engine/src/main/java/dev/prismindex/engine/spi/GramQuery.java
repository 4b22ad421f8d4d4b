package dev.prismindex.engine.spi;

import java.util.List;
import java.util.Objects;

/**
 * Which files an exact search must read, as a condition on their n-grams ({@link FileGrams}):
 * the plan of a literal query (every gram of it: an {@link And}), and of a regular expression (an
 * AND / OR tree of the grams its matches must contain, as codesearch and zoekt plan them). A
 * store answers it from its gram index ({@link StoreReader#files}); the kernel then verifies each
 * file against the working tree, so a plan may select too much, never too little.
 */
public sealed interface GramQuery {

  /** Every file: a query with no gram to require (one character, or a pattern without literals). */
  record All() implements GramQuery {}

  /**
   * The files with an indexed gram containing {@code text}: for a trigram, that very gram; for a
   * bigram, a trigram starting or ending with it, or the bigram of a two-unit line.
   *
   * @param text a lower-cased gram of two or three UTF-16 units
   */
  record Gram(String text) implements GramQuery {
    public Gram {
      Objects.requireNonNull(text, "text");
      if (text.length() < 2 || text.length() > 3) {
        throw new IllegalArgumentException("a gram has two or three units: \"" + text + "\"");
      }
    }
  }

  /** The files every one of {@code all} selects. */
  record And(List<GramQuery> all) implements GramQuery {
    public And {
      all = List.copyOf(all);
      if (all.isEmpty()) {
        throw new IllegalArgumentException("an AND of nothing: use All");
      }
    }
  }

  /** The files at least one of {@code any} selects. */
  record Or(List<GramQuery> any) implements GramQuery {
    public Or {
      any = List.copyOf(any);
      if (any.isEmpty()) {
        throw new IllegalArgumentException("an OR of nothing selects nothing");
      }
    }
  }

  /** Every file. */
  static GramQuery all() {
    return new All();
  }

  /** The files holding every gram of {@code grams}; every file when there is none. */
  static GramQuery allOf(List<String> grams) {
    if (grams.isEmpty()) {
      return all();
    }
    return grams.size() == 1 ? new Gram(grams.get(0))
        : new And(grams.stream().<GramQuery>map(Gram::new).toList());
  }
}
