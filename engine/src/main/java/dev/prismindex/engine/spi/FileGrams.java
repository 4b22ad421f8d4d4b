package dev.prismindex.engine.spi;

import java.util.List;

/**
 * The n-grams of one file, as the kernel's exact search plans its candidates ({@link GramQuery}):
 * of each line lower-cased ({@code toLowerCase(Locale.ROOT)}), the trigrams of a line of three
 * UTF-16 units or more and the bigram of a line of exactly two, plus those of the path, without
 * the grams so common that no query requires them. A store keeps them with the file and answers
 * {@link StoreReader#files} from them.
 */
public interface FileGrams {

  /** The distinct grams, in no particular order. */
  List<String> grams();
}
