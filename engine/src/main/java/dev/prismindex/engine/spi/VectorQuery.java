package dev.prismindex.engine.spi;

import java.util.Objects;
import java.util.function.Predicate;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * A k-NN request over the chunk vectors ({@link StoreReader#nearest}).
 *
 * @param unit the query's unit vector (of the model the index pins)
 * @param depth how many chunks at most
 * @param fetch how many vectors to take from an approximate (graph) search before rescoring them
 *     exactly ({@code 4 x depth + 10} by default): more finds neighbours an approximate search
 *     over byte codes misses, at a cost; a store whose engine caps a k-NN query takes at most its
 *     cap
 * @param filter the search's files as a query on {@link StoreFields#PATH}, or null for all
 * @param selects the same rule as a predicate on repository-relative paths, for a store that
 *     resolves vectors to chunks after the search
 */
public record VectorQuery(float[] unit, int depth, int fetch, @Nullable Query filter,
    Predicate<String> selects) {

  public VectorQuery {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(selects, "selects");
    if (depth < 1 || fetch < depth) {
      throw new IllegalArgumentException("need 1 <= depth <= fetch: " + depth + ", " + fetch);
    }
  }
}
