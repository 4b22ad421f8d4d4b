package dev.prismindex.engine;

import dev.prismindex.engine.internal.query.WorkspaceSearch;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.internal.Closing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Several repositories searched as one. Each keeps its own {@link HybridIndex} (its own walk,
 * freshness and {@link HybridIndex#refresh refresh}: bring each up to date as you would one); a
 * search ranks the candidates of every index in one ranking with the one ranker, BM25 scored with
 * the term and field statistics of all the indexes together (as if one index held them all, so a
 * small repository's hits do not win by its small document counts) and cosines compared as they
 * are, each repository's scores then weighed by how typical the query's words are of its chunks
 * (shares of its chunks, not counts: the repository a query reads like comes first). Every hit names its repository ({@link Hit#repo()}, its {@code path} relative to that
 * repository's root). The exact modes (literal, regex) answer the union of each repository's
 * matches, by repository name, then path and line, and can stream them ({@link #stream}). The
 * limit applies to the workspace as a whole.
 *
 * <pre>{@code
 * Map<String, HybridIndexOptions> repos = Map.of(
 *     "api", HybridIndexOptions.builder(Path.of("api")).build(),
 *     "client", HybridIndexOptions.builder(Path.of("client-java")).build());
 * try (Workspace workspace = Workspace.open(repos)) {
 *   for (HybridIndex index : workspace.indexes().values()) {
 *     index.refresh(RefreshOptions.INCREMENTAL);
 *   }
 *   for (Hit hit : workspace.search("retry with backoff", SearchOpts.lexical(10))) {
 *     System.out.println(hit.repo() + "/" + hit.path() + ":" + hit.line());
 *   }
 * }
 * }</pre>
 *
 * <p>Repositories are named by short names ({@link #checkName}), unique within the workspace, and
 * kept in name order ({@link #select} picks some by names and globs). The indexes must be local ({@link HybridIndex#open(HybridIndexOptions)}): a
 * cluster ranks its repositories as one itself. Searches are thread-safe when the indexes are.
 */
public final class Workspace implements CodeSearch, AutoCloseable {

  /** What a repository's name may be: a letter or digit, then letters, digits, {@code . _ -}. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  private final Map<String, HybridIndex> indexes;
  private final boolean owned;
  /** Whether the ranked modes weigh each repository by the query's words (the default). */
  private final boolean repositoryPrior;

  private Workspace(Map<String, HybridIndex> indexes, boolean owned, boolean repositoryPrior) {
    this.indexes = Collections.unmodifiableMap(indexes);
    this.owned = owned;
    this.repositoryPrior = repositoryPrior;
  }

  /**
   * A workspace of indexes already open, by name; the caller keeps them ({@link #close} does not
   * close them).
   *
   * @throws IllegalArgumentException when there is none, a name is not a {@linkplain #checkName
   *     valid name}, or an index is not a local one
   */
  public static Workspace of(Map<String, HybridIndex> indexes) {
    Map<String, HybridIndex> sorted = new TreeMap<>();
    indexes.forEach((name, index) -> sorted.put(checkName(name),
        Objects.requireNonNull(index, "index")));
    Workspace w = new Workspace(sorted, false, true);
    w.search(); // refuses what cannot be searched as one
    return w;
  }

  /**
   * Opens the index of each repository ({@link HybridIndex#open(HybridIndexOptions)}, which
   * creates a missing index home but indexes nothing); {@link #close} closes them.
   *
   * @throws IllegalArgumentException for no repository or an invalid name
   * @throws IOException as {@link HybridIndex#open(HybridIndexOptions)} (its message names the
   *     repository's root or index home; the indexes opened so far are closed)
   */
  public static Workspace open(Map<String, HybridIndexOptions> repositories) throws IOException {
    Map<String, HybridIndexOptions> sorted = new TreeMap<>();
    repositories.forEach((name, options) -> sorted.put(checkName(name),
        Objects.requireNonNull(options, "options")));
    if (sorted.isEmpty()) {
      throw new IllegalArgumentException("a workspace has at least one repository");
    }
    Map<String, HybridIndex> open = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, HybridIndexOptions> e : sorted.entrySet()) {
        open.put(e.getKey(), HybridIndex.open(e.getValue()));
      }
    } catch (IOException | RuntimeException e) {
      Closing.closeAll(open.values(), e);
      throw e;
    }
    return new Workspace(open, true, true);
  }

  /**
   * {@code name} when it can name a repository of a workspace: 1 to 100 characters, letters,
   * digits, {@code .}, {@code _} and {@code -}, starting with a letter or digit (so it is a file
   * name, never a path or an option, and a glob of {@link #select} can match it).
   *
   * @throws IllegalArgumentException when it cannot
   */
  public static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("invalid repository name '" + name + "': use 1 to 100"
          + " letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    return name;
  }

  /**
   * The names of {@code names} that {@code patterns} select, in their order: the one repository
   * filter ({@link RepositoryFilter}, also a cluster's; {@link #only}, the command line's {@code
   * --repos}, the MCP tool's {@code repos}), names and globs compared ignoring case, a leading
   * {@code !} leaving out ({@code client-*}, {@code !client-legacy}).
   *
   * @throws IllegalArgumentException when {@code patterns} is empty, a pattern is neither a name
   *     nor a glob of names, a name (a pattern without {@code *}) is not among {@code names}, or
   *     the patterns select none (the message lists {@code names})
   */
  public static List<String> select(Collection<String> names, Collection<String> patterns) {
    RepositoryFilter filter = RepositoryFilter.of(patterns);
    if (filter.all()) {
      throw new IllegalArgumentException("no repository name or glob given");
    }
    return filter.select(names);
  }

  /**
   * This workspace's repositories that {@code patterns} select ({@link #select}), as a workspace
   * over the same indexes (closing it closes nothing).
   *
   * @throws IllegalArgumentException as {@link #select}
   */
  public Workspace only(Collection<String> patterns) {
    Map<String, HybridIndex> selected = new TreeMap<>();
    for (String name : select(indexes.keySet(), patterns)) {
      selected.put(name, indexes.get(name));
    }
    return new Workspace(selected, false, repositoryPrior);
  }

  /**
   * This workspace without the repository prior (every repository weighed 1): the ranked modes
   * then answer exactly as one index holding every repository would (the reference the tests hold
   * the merged statistics to). Closing it closes nothing.
   */
  Workspace withoutRepositoryPrior() {
    return new Workspace(indexes, false, false);
  }

  /** The repositories' indexes by name, in name order. */
  public Map<String, HybridIndex> indexes() {
    return indexes;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Ranked modes: as {@link HybridIndex#searchResult} over one index holding every
   * repository's documents (merged BM25 statistics; each index's own k-NN, cosines compared;
   * each repository's scores weighed by the query's words first; the same fusion, path prior
   * and identifier guard), each hit checked against its own
   * repository's working tree; ties between repositories go to the one first by name. Hybrid:
   * that answer decides which repository holds each place (its places' scores weighed by how much
   * the repository's engines agree), and each repository's places hold its hits in the order its
   * own index alone ranks them, so the workspace never reorders one repository's hits. Exact
   * modes: each repository's matches in path, line order, repositories by name ({@link #stream}
   * collected); {@link
   * SearchResult#notSearched()} sums the repositories' counts. The coverage sums every index's.
   *
   * @throws SemanticSearchUnavailableException for a semantic or hybrid search when a repository
   *     cannot be searched semantically, or two use different models (the message names them)
   * @throws CorruptIndexException when a repository's index is damaged (the message names its
   *     index home)
   */
  @Override
  public SearchResult searchResult(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    return search().search(query, opts);
  }

  /**
   * An exact search (LITERAL, INDEXED_LITERAL, REGEX) of every repository whose hits are handed to
   * {@code sink} as they are found: each repository's as {@link HybridIndex#stream} finds them,
   * named after it ({@link Hit#repo()}), repositories in name order, until {@link
   * SearchOpts#limit()} for the workspace as a whole. The same hits, in the same order, as {@link
   * #searchResult}; the result returned holds none of them (not searched: the repositories'
   * counts summed; every file read: by any repository).
   *
   * @throws IllegalArgumentException for a ranked mode, or a pattern that does not compile
   * @throws CorruptIndexException when a repository's index is damaged
   * @throws IOException when an index cannot be read
   */
  public SearchResult stream(String query, SearchOpts opts, Consumer<Hit> sink)
      throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    Objects.requireNonNull(sink, "sink");
    return search().stream(query, opts, sink);
  }

  /** The search over the indexes as they are now (each checked open and local). */
  private WorkspaceSearch search() {
    List<WorkspaceSearch.Member> members = new ArrayList<>();
    indexes.forEach((name, index) -> members.add(member(name, index)));
    return new WorkspaceSearch(members, repositoryPrior);
  }

  /**
   * {@code index} as the repository {@code name} of a workspace.
   *
   * @throws IllegalArgumentException when the index is kept by a plugged store: a workspace merges
   *     the statistics of local indexes (a cluster ranks its repositories as one itself)
   */
  private static WorkspaceSearch.Member member(String name, HybridIndex index) {
    IndexParts parts = index.parts();
    parts.ensureOpen();
    IndexStore local = parts.local();
    if (local == null) {
      throw new IllegalArgumentException("repository " + name + ": a workspace holds local"
          + " indexes only, not " + index.options().root() + "'s index in a plugged store");
    }
    return new WorkspaceSearch.Member(name, parts.ctx(), local, parts.planner());
  }

  /** Closes the indexes {@link #open} opened; a workspace {@link #of} indexes closes nothing. */
  @Override
  public void close() throws IOException {
    if (owned) {
      Closing.closeAll(indexes.values());
    }
  }
}
