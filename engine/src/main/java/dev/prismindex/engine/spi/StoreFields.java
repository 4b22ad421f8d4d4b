package dev.prismindex.engine.spi;

/**
 * The fields the kernel's queries name ({@link LexicalQuery}, {@link VectorQuery#filter()}): a
 * store indexes a CHUNK document's text under these names, analyzed by the kernel's analyzer
 * ({@link WriteSpec#analyzer()}: each term with its position, so that term frequencies and field
 * lengths are the local index's), and scores them with BM25 ({@code k1 = 1.2}, {@code b = 0.75},
 * the kernel's similarity), and it keeps each document's path as one exact term.
 */
public final class StoreFields {

  /** A document's repository-relative path, one exact term (CHUNK and FILE documents). */
  public static final String PATH = "path";
  /** A chunk's text, analyzed into identifier-aware tokens. */
  public static final String BODY = "body";
  /** The names a chunk defines, each whole and split. */
  public static final String SYMBOL = "symbol";
  /** The chunk's file path as words. */
  public static final String PATH_TEXT = "path_text";
  /** A chunk's text as English (identifier words, no stop words, stemmed). */
  public static final String PROSE = "prose";

  private StoreFields() {}
}
