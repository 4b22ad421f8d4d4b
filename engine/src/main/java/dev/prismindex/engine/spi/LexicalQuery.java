package dev.prismindex.engine.spi;

import java.util.List;
import java.util.Objects;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * A BM25 request over the CHUNK documents ({@link StoreReader#lexical}).
 *
 * @param parts the scored parts, each a Lucene query tree over {@link StoreFields} (boolean,
 *     boost, dis-max, term, term-set, prefix and match-none queries only): a candidate's score is
 *     the sum of the parts it matches, and {@link Candidate#parts()} reports each
 * @param filter which chunks may be candidates (the search's files, as terms and prefixes of
 *     {@link StoreFields#PATH}), or null for all; it does not score
 * @param depth how many candidates at most
 */
public record LexicalQuery(List<Query> parts, @Nullable Query filter, int depth) {

  public LexicalQuery {
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a lexical query has at least one part");
    }
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be at least 1: " + depth);
    }
  }

  /** A one-part query. */
  public static LexicalQuery of(Query part, @Nullable Query filter, int depth) {
    return new LexicalQuery(List.of(Objects.requireNonNull(part, "part")), filter, depth);
  }
}
