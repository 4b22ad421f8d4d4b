package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticCoverage;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.LuceneReader;
import dev.prismindex.engine.internal.store.MergedStatistics;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.internal.Closing;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.jspecify.annotations.Nullable;

/**
 * One search over the indexes of a workspace (several local repositories), run as one: the
 * ranked modes hold the last commit of every index at once, score BM25 with their merged
 * statistics ({@link MergedStatistics}) and rank every candidate with the one {@link
 * RankedSearch} through a {@link WorkspaceReader}; the exact modes (literal, regex) are the
 * union of each repository's answer, repository by repository in the workspace's order (then path
 * and line), streamed, the limit applying to the union.
 */
public final class WorkspaceSearch {

  /**
   * One repository of the workspace: its name and its open index's parts.
   *
   * @param planner the index's own planner (its literal answers)
   */
  public record Member(String name, EngineContext ctx, IndexStore store, QueryPlanner planner) {}

  /**
   * Whether a hybrid search keeps each repository's own order of its hits ({@link #ownOrder});
   * the property is for measuring.
   */
  static final String OWN_ORDER = System.getProperty("prism.workspace.ownOrder", "off");

  /** Measuring: how much a repository whose engines agree gains in the slots' order. */
  static final double AGREEMENT = Double.parseDouble(
      System.getProperty("prism.workspace.agreement", "0"));
  static final int AGREEMENT_TOP = Integer.getInteger("prism.workspace.agreementTop", 5);

  private final List<Member> members;
  private final boolean repositoryPrior;

  /**
   * A search over {@code members}, in that order (ties and literal answers follow it).
   *
   * @param repositoryPrior whether the ranked modes weigh each repository by how typical the
   *     query's words are of it ({@link RepositoryPrior}); false: every repository weighs 1
   */
  public WorkspaceSearch(List<Member> members, boolean repositoryPrior) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a workspace has at least one repository");
    }
    this.members = List.copyOf(members);
    this.repositoryPrior = repositoryPrior;
  }

  /** See {@code Workspace.searchResult}. */
  public SearchResult search(String query, SearchOpts opts) throws IOException {
    if (!SearchOpts.exact(opts.mode())) {
      return ranked(query, opts);
    }
    List<Hit> hits = new ArrayList<>();
    SearchResult r = stream(query, opts, hits::add);
    return new SearchResult(hits, r.mode(), r.coverage(), r.notSearched(), r.truncated(),
        r.everyFileRead());
  }

  private SearchResult ranked(String query, SearchOpts opts) throws IOException {
    SearchMode mode = opts.mode();
    List<IndexStore.Lease> leases = new ArrayList<>();
    try {
      List<Member> held = new ArrayList<>();
      List<IndexSearcher> searchers = new ArrayList<>();
      for (Member m : members) {
        m.store().checkUndamaged();
        IndexStore.Lease lease = m.store().lease();
        leases.add(lease);
        if (lease.searcher() != null) {
          held.add(m);
          searchers.add(lease.searcher());
        }
      }
      List<IndexReader> readers = searchers.stream().map(IndexSearcher::getIndexReader).toList();
      MergedStatistics statistics = new MergedStatistics(readers);
      List<WorkspaceReader.Part> parts = new ArrayList<>();
      List<Map<String, String>> records = new ArrayList<>();
      long chunks = 0;
      long embedded = 0;
      double[] weights = RepositoryPrior.weights(readers, repositoryPrior
          ? new LexicalSearcher(members.get(0).ctx().analyzer()).terms(query) : Set.of());
      for (int i = 0; i < held.size(); i++) {
        Member m = held.get(i);
        LuceneReader reader = new LuceneReader(statistics.searcher(readers.get(i)));
        Map<String, String> data = reader.commit().values();
        records.add(data);
        SemanticCoverage c = CommitMeta.coverage(data);
        chunks += c.chunks();
        embedded += c.chunksEmbedded();
        parts.add(new WorkspaceReader.Part(m.name(), m.ctx().options().root(),
            m.ctx().options().exactMaxFileBytes(), reader, m.store()::corruption, weights[i]));
      }
      float[] unit = null;
      if (mode.needsSemantic()) {
        Embedder model = model(held.isEmpty() ? members : held,
            held.isEmpty() ? null : records);
        unit = QueryPlanner.embedQuery(model, query);
      }
      if (held.isEmpty()) {
        return new SearchResult(List.of(), mode, new SemanticCoverage(0, 0));
      }
      WorkspaceReader workspace = new WorkspaceReader(parts);
      RankedSearch ranked = new RankedSearch(members.get(0).ctx().analyzer());
      RankedSearch.Ranking r = ranked.hits(workspace, workspace, query, unit, opts);
      List<Hit> hits = r.hits();
      if (!OWN_ORDER.equals("off") && mode == SearchMode.HYBRID) {
        List<StoreReader> own = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
          own.add(OWN_ORDER.equals("merged") ? parts.get(i).reader()
              : new LuceneReader(searchers.get(i)));
        }
        hits = ownOrder(hits, held, own, ranked, query, unit, opts);
      }
      return new SearchResult(hits, mode, new SemanticCoverage(chunks, embedded), Map.of(),
          r.truncated());
    } finally {
      Closing.closeAll(leases);
    }
  }

  /**
   * {@code pooled} with each repository's slots (the places its hits hold) filled with its hits in
   * the order its own search gives ({@link QueryPlanner#search}: its own statistics, fusion,
   * priors, promotion and identifier guard): the pooled merge decides which repository holds each
   * place, never the order of one repository's hits. A slot keeps the pooled hit's score (the list
   * stays in score order); a repository whose own search yields fewer hits than it holds places
   * keeps its pooled hits not yet given.
   */
  private static List<Hit> ownOrder(List<Hit> pooled, List<Member> held,
      List<StoreReader> readers, RankedSearch ranked, String query, float @Nullable [] unit,
      SearchOpts opts) throws IOException {
    Map<String, Integer> slots = new HashMap<>();
    for (Hit h : pooled) {
      slots.merge(h.repo(), 1, Integer::sum);
    }
    Map<String, Iterator<Hit>> own = new HashMap<>();
    Map<String, Double> agreement = new HashMap<>();
    for (int i = 0; i < held.size(); i++) {
      Member m = held.get(i);
      if (!slots.containsKey(m.name())) {
        continue;
      }
      StoreReader reader = readers.get(i);
      FileSource files = FileSource.of(m.ctx().options().root(), reader,
          m.ctx().options().exactMaxFileBytes());
      List<Hit> alone = ranked.hits(reader, files, query, unit,
          withLimit(opts, AGREEMENT > 0 ? Math.max(opts.limit(), AGREEMENT_TOP)
              : slots.get(m.name()))).hits();
      own.put(m.name(), alone.iterator());
      if (AGREEMENT > 0) {
        int both = 0;
        for (Hit h : alone) {
          if (h.lexical() != null && h.semantic() != null && h.lexical().rank() <= AGREEMENT_TOP
              && h.semantic().rank() <= AGREEMENT_TOP) {
            both++;
          }
        }
        agreement.put(m.name(), 1 + AGREEMENT * Math.min(1.0, both / (double) AGREEMENT_TOP));
      }
    }
    List<Hit> order = new ArrayList<>(pooled);
    if (AGREEMENT > 0) {
      order.sort(Comparator.comparingDouble(
          (Hit h) -> h.score() * agreement.getOrDefault(h.repo(), 1.0)).reversed());
    }
    Set<String> given = new HashSet<>();
    List<Hit> out = new ArrayList<>(pooled.size());
    for (Hit slot : order) {
      Iterator<Hit> mine = own.get(slot.repo());
      Hit next = null;
      while (next == null && mine != null && mine.hasNext()) {
        Hit h = mine.next();
        if (!given.contains(key(slot.repo(), h))) {
          next = h.withRepo(slot.repo()).withScore(slot.score());
        }
      }
      if (next == null) {
        next = slot;
      }
      if (given.add(key(slot.repo(), next))) {
        out.add(next);
      }
    }
    return out;
  }

  private static String key(@Nullable String repo, Hit h) {
    return repo + '\0' + h.path() + ':' + h.line();
  }

  /**
   * The one model of a semantic search over {@code members}: each must be able to search its
   * index semantically ({@code records}: their commits' data, null when none has an index yet),
   * and all with the same model, or cosines would not compare.
   *
   * @throws SemanticSearchUnavailableException naming the repository that cannot
   */
  private static Embedder model(List<Member> members, @Nullable List<Map<String, String>> records)
      throws SemanticSearchUnavailableException {
    Embedder first = null;
    String firstName = null;
    for (int i = 0; i < members.size(); i++) {
      Member m = members.get(i);
      Embedder e;
      try {
        e = m.ctx().semantic().require(records == null ? Map.of() : records.get(i));
      } catch (SemanticSearchUnavailableException x) {
        throw new SemanticSearchUnavailableException(x.state(), "repository " + m.name() + ": "
            + x.getMessage(), x);
      }
      if (first == null) {
        first = e;
        firstName = m.name();
      } else if (!first.id().equals(e.id()) || first.dimension() != e.dimension()) {
        throw new SemanticSearchUnavailableException(SemanticState.MODEL_MISMATCH,
            SemanticSearchUnavailableException.PREFIX + "repositories " + firstName + " and "
                + m.name() + " embed with different models (" + first.id() + ", " + e.id()
                + "): their similarities do not compare", null);
      }
    }
    if (first == null) {
      throw new IllegalStateException("no repository");
    }
    return first;
  }

  /**
   * See {@code Workspace.stream}: each repository's exact answer ({@link QueryPlanner#stream}) in
   * the workspace's order, its hits named after it and handed to {@code sink} as they come, until
   * the limit: each repository is asked for what the limit leaves, and once it is reached, the
   * next ones for one match (not handed over), to know whether the answer was cut. Files not
   * searched are summed over the repositories searched.
   */
  public SearchResult stream(String query, SearchOpts opts, Consumer<Hit> sink)
      throws IOException {
    if (!SearchOpts.exact(opts.mode())) {
      throw new IllegalArgumentException("only the exact modes stream: "
          + (opts.mode() == null ? "automatic (hybrid or lexical)" : opts.mode().wireName()));
    }
    int[] handed = {0};
    Map<String, Integer> notSearched = new TreeMap<>();
    long chunks = 0;
    long embedded = 0;
    boolean truncated = false;
    boolean everyFileRead = false;
    for (Member m : members) {
      int left = opts.limit() - handed[0];
      if (left == 0) {
        int[] found = {0};
        SearchResult r = m.planner().stream(query, withLimit(opts, 1), h -> found[0]++);
        if (found[0] > 0 || r.truncated()) {
          truncated = true;
          break;
        }
        continue;
      }
      SearchResult r = m.planner().stream(query, withLimit(opts, left), h -> {
        handed[0]++;
        sink.accept(h.withRepo(m.name()));
      });
      chunks += r.coverage().chunks();
      embedded += r.coverage().chunksEmbedded();
      everyFileRead |= r.everyFileRead();
      r.notSearched().forEach((reason, n) -> notSearched.merge(reason, n, Integer::sum));
      if (r.truncated()) {
        truncated = true;
        break;
      }
    }
    return new SearchResult(List.of(), opts.mode(), new SemanticCoverage(chunks, embedded),
        notSearched, truncated, everyFileRead);
  }

  private static SearchOpts withLimit(SearchOpts o, int limit) {
    return new SearchOpts(limit, o.mode(), o.files(), o.fusion(), o.caseSensitive(),
        o.auxiliaryWeight(), o.contextBefore(), o.contextAfter(), o.wholeWords(), o.maxPerFile());
  }
}
