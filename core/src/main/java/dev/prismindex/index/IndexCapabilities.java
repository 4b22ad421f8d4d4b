package dev.prismindex.index;

import dev.prismindex.repository.SearchMode;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a backend can answer: the index modes it serves. Every backend answers
 * {@link SearchMode#INDEXED_LITERAL} (always in the set); {@code semantic}, {@code lexical} and
 * {@code hybrid} must be declared explicitly. The composite refuses a mode its backend does not
 * declare as UNSUPPORTED, before any other backend call. {@link SearchMode#LITERAL} and
 * {@link SearchMode#REGEX} are never backend modes (the trusted scanner answers them).
 *
 * <p>The contract's {@code capabilities.semantic} is {@link #semantic()}; {@code new
 * IndexCapabilities(true)} and {@code new IndexCapabilities(false)} keep their meaning.
 *
 * @param modes the index modes served: an unmodifiable set holding at least
 *     {@link SearchMode#INDEXED_LITERAL}
 */
public record IndexCapabilities(Set<SearchMode> modes) {

  /** Capabilities of a backend that answers {@code indexed_literal} only. */
  public static final IndexCapabilities LITERAL_ONLY = new IndexCapabilities(false);
  /** Capabilities of a backend that also answers {@code semantic}. */
  public static final IndexCapabilities SEMANTIC = new IndexCapabilities(true);

  /**
   * Copies {@code modes} and adds {@link SearchMode#INDEXED_LITERAL}.
   *
   * @throws IllegalArgumentException when {@code modes} holds {@link SearchMode#LITERAL} or
   *     {@link SearchMode#REGEX}
   */
  public IndexCapabilities {
    Objects.requireNonNull(modes, "modes");
    EnumSet<SearchMode> set = EnumSet.of(SearchMode.INDEXED_LITERAL);
    set.addAll(modes);
    if (set.contains(SearchMode.LITERAL)) {
      throw new IllegalArgumentException("literal is answered by the scanner, never by a backend");
    }
    if (set.contains(SearchMode.REGEX)) {
      throw new IllegalArgumentException("regex is answered by the scanner, never by a backend");
    }
    modes = Collections.unmodifiableSet(set);
  }

  /** {@code indexed_literal}, plus {@code semantic} when {@code semantic} is true. */
  public IndexCapabilities(boolean semantic) {
    this(semantic ? EnumSet.of(SearchMode.SEMANTIC) : EnumSet.noneOf(SearchMode.class));
  }

  /**
   * The capabilities of a backend answering {@code indexed_literal} and the given modes.
   *
   * @throws IllegalArgumentException for {@link SearchMode#LITERAL} or {@link SearchMode#REGEX}
   */
  public static IndexCapabilities of(SearchMode... modes) {
    EnumSet<SearchMode> set = EnumSet.noneOf(SearchMode.class);
    Collections.addAll(set, modes);
    return new IndexCapabilities(set);
  }

  /** Whether the backend answers {@link SearchMode#SEMANTIC} (the contract's {@code semantic}). */
  public boolean semantic() {
    return modes.contains(SearchMode.SEMANTIC);
  }

  /** Whether the backend answers {@code mode}. */
  public boolean answers(SearchMode mode) {
    return modes.contains(mode);
  }
}
