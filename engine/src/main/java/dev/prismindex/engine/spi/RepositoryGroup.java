package dev.prismindex.engine.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.SortedMap;

/**
 * Several repositories' indexes searched as one (an organisation's repository indexes in a
 * cluster): the kernel's {@code GroupSearch} ranks their candidates together, so their scores
 * must compare. A store that answers one request per signal over all of them (a cluster's index
 * pattern with cluster-wide term statistics) gives each repository's chunks the scores a search
 * of that repository alone would give with the same statistics; merging the candidates of one
 * reader per repository by score gives the same lists.
 *
 * <p>What the group holds is decided by the store before a search begins (the repositories a
 * caller may see, then the ones the search names): nothing outside it may reach a candidate, a
 * count or a record. Thread-safe; {@link #close} releases the store's connections.
 */
public interface RepositoryGroup extends Closeable {

  /** What is searched, for messages: {@code "12 repositories of the cluster at [...]"}. */
  String describe();

  /**
   * The record of each repository's index ({@link Store#record()}), by repository name: exactly
   * the repositories a search reads, and no other.
   *
   * @throws IOException when the store cannot be read
   */
  SortedMap<String, CommitRecord> repositories() throws IOException;

  /**
   * A reader of all of them for one search: chunks carry their {@link ChunkDoc#repository()},
   * manifest entries and stored contents are asked by repository ({@link
   * StoreReader#file(String, String)}, {@link StoreReader#content}), exact-search candidates come
   * by repository ({@link StoreReader#filesByRepository}).
   *
   * @throws IOException when the store cannot be read
   */
  StoreReader reader() throws IOException;
}
