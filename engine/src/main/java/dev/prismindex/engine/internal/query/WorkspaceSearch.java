package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.Fusion;
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
import java.util.Collections;
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
   * Whether a hybrid search keeps each repository's own order of its hits ({@link #ownOrder}; the
   * property, for measuring, turns it off).
   */
  static final boolean OWN_ORDER =
      Boolean.parseBoolean(System.getProperty("prism.workspace.ownOrder", "true"));

  /**
   * How much a repository's places gain when its engines agree fully ({@link #agreement}): its
   * places' scores are weighed by {@code 1 + AGREEMENT x agreement} (the property is for
   * measuring; 0: the pooled order of places).
   */
  static final double AGREEMENT = Double.parseDouble(
      System.getProperty("prism.workspace.agreement", "0.5"));

  /** The places of each engine's ranking {@link #agreement} looks at. */
  static final int AGREEMENT_TOP = 5;

  /**
   * A repository's places are also weighed by its own first hit's definition prior factor ({@link
   * RankedSearch.Ranking#firstFactor}: name, code and signature shares of the sentence) to this
   * power: a sentence that says a function's name and its code's words is evidence for the
   * repository holding it (quality benchmark's workspace, hybrid NL MRR@10 0.460 to 0.462, every
   * language up: docs/benchmarks.md, section 11). 0 turns it off; the property is for measuring.
   */
  static final double DEFINITION =
      Double.parseDouble(System.getProperty("prism.workspace.definition", "1"));

  /**
   * Whether the pooled answer of a sentence's HYBRID search by the learned ranker takes the
   * hand-set stack's order ({@link Fusion#rrf()}) while each repository keeps the ranker's own
   * order ({@link #ownOrder}): for a sentence, the ranker's scores order the candidates of one
   * list and compare poorly across repositories, the fused ranks and priors better (quality
   * benchmark's workspace, hybrid NL MRR@10 0.516 to 0.523, every language up: docs/benchmarks.md,
   * section 11). A name's search keeps the ranker's pooled order, which puts the name's definitions
   * first as each repository's own order does, so that a repository holding many of them does
   * not give its places to them while another repository's copy of a file takes a place above its
   * own. False, for measuring: the pooled answer by the ranker always.
   */
  static final boolean POOLED_HAND =
      Boolean.parseBoolean(System.getProperty("prism.workspace.pooledHand", "true"));

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
      boolean merged = OWN_ORDER && mode == SearchMode.HYBRID && held.size() > 1;
      RankedSearch.Ranking r = ranked.hits(workspace, workspace, query, unit,
          merged && POOLED_HAND && opts.fusion().ranker() && LexicalSearcher.isProse(query)
              ? with(opts, opts.limit(), Fusion.rrf()) : opts);
      List<Hit> hits = r.hits();
      if (merged) {
        List<StoreReader> own = new ArrayList<>();
        for (IndexSearcher s : searchers) {
          own.add(new LuceneReader(s));
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
   * {@code pooled} (a hybrid answer) with each repository's places filled with its hits in the
   * order its own search gives them ({@link QueryPlanner#search}: its own statistics, fusion,
   * priors, promotion and identifier guard), so a workspace never reorders one repository's hits:
   * rank fusion over the pooled lists would (each signal's ranks interleave with the other
   * repositories' candidates in its own way). The pooled answer (in the hand-set order when the
   * search's is the learned ranker's, {@link #POOLED_HAND}) decides which repository holds each
   * place, its repositories ordered by their places' scores weighed by how much their engines
   * agree ({@link #agreement}) and by their own first hit's definition factor ({@link
   * #DEFINITION}); each place keeps its score (the list stays in score order). A
   * repository whose own search yields fewer hits than it holds places keeps its pooled hits not
   * yet given.
   *
   * @param readers each held index's reader with its own statistics, in {@code held}'s order
   */
  private static List<Hit> ownOrder(List<Hit> pooled, List<Member> held,
      List<StoreReader> readers, RankedSearch ranked, String query, float @Nullable [] unit,
      SearchOpts opts) throws IOException {
    Map<String, Integer> places = new HashMap<>();
    for (Hit h : pooled) {
      places.merge(h.repo(), 1, Integer::sum);
    }
    Map<String, Iterator<Hit>> own = new HashMap<>();
    Map<String, Double> agreements = new HashMap<>();
    Map<String, Double> extras = new HashMap<>();
    for (int i = 0; i < held.size(); i++) {
      Member m = held.get(i);
      if (!places.containsKey(m.name())) {
        continue;
      }
      StoreReader reader = readers.get(i);
      FileSource files = FileSource.of(m.ctx().options().root(), reader,
          m.ctx().options().exactMaxFileBytes());
      int limit = AGREEMENT > 0 ? Math.max(places.get(m.name()), 2 * AGREEMENT_TOP)
          : places.get(m.name());
      RankedSearch.Ranking ranking = ranked.hits(reader, files, query, unit,
          withLimit(opts, limit));
      List<Hit> alone = ranking.hits();
      own.put(m.name(), alone.iterator());
      agreements.put(m.name(), agreement(alone));
      extras.put(m.name(), DEFINITION > 0 ? Math.pow(ranking.firstFactor(), DEFINITION) : 1.0);
    }
    return fill(pooled, places(pooled, agreements, extras), own);
  }

  /**
   * The answer of {@code pooled} (hits in score order) whose places, taken in {@code order} (a
   * permutation of {@code pooled}), each get their repository's next hit of {@code own} (its own
   * search's, best first) not yet given; the {@code i}-th hit keeps the {@code i}-th pooled score.
   * A repository whose own hits run out fills its remaining places with its pooled hits not yet
   * given, in pooled order: as many hits as {@code pooled}, none twice.
   */
  static List<Hit> fill(List<Hit> pooled, List<Hit> order, Map<String, Iterator<Hit>> own) {
    Set<String> given = new HashSet<>();
    List<Hit> out = new ArrayList<>(pooled.size());
    for (Hit place : order) {
      Iterator<Hit> mine = own.getOrDefault(place.repo(), Collections.emptyIterator());
      Hit next = null;
      while (next == null && mine.hasNext()) {
        Hit h = mine.next().withRepo(place.repo());
        if (!given.contains(key(h))) {
          next = h;
        }
      }
      for (Iterator<Hit> left = pooled.iterator(); next == null && left.hasNext(); ) {
        Hit h = left.next();
        if (place.repo().equals(h.repo()) && !given.contains(key(h))) {
          next = h;
        }
      }
      if (next != null && given.add(key(next))) {
        out.add(next.withScore(pooled.get(out.size()).score()));
      }
    }
    return out;
  }

  /**
   * The places of {@code pooled} (hits in score order, each naming its repository) in the order
   * their repositories take them: by score weighed by {@code 1 + AGREEMENT x} the repository's
   * {@code agreement} ({@link #agreement}) and by its {@code extra} (1 when absent; stable: equal
   * weighed scores keep their order).
   */
  static List<Hit> places(List<Hit> pooled, Map<String, Double> agreement,
      Map<String, Double> extra) {
    List<Hit> order = new ArrayList<>(pooled);
    if (AGREEMENT > 0 || !extra.isEmpty()) {
      order.sort(Comparator.comparingDouble((Hit h) -> h.score()
          * (1 + AGREEMENT * agreement.getOrDefault(h.repo(), 0.0))
          * extra.getOrDefault(h.repo(), 1.0)).reversed());
    }
    return order;
  }

  /**
   * How much a repository's engines agree on a query, in [0, 1]: the share of the first {@link
   * #AGREEMENT_TOP} places of each engine's ranking in that repository (its own search's ranks)
   * that its first hits hold in both. A repository whose lexical and semantic bests are the same
   * chunks answers the query more surely than one where each engine finds something else.
   */
  static double agreement(List<Hit> alone) {
    int both = 0;
    for (Hit h : alone) {
      if (h.lexical() != null && h.semantic() != null && h.lexical().rank() <= AGREEMENT_TOP
          && h.semantic().rank() <= AGREEMENT_TOP) {
        both++;
      }
    }
    return Math.min(1.0, both / (double) AGREEMENT_TOP);
  }

  private static String key(Hit h) {
    return h.repo() + '\0' + h.path() + ':' + h.line();
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

  /** {@code o} with another limit. */
  private static SearchOpts withLimit(SearchOpts o, int limit) {
    return with(o, limit, o.fusion());
  }

  /** {@code o} with another limit and fusion, every other option kept. */
  private static SearchOpts with(SearchOpts o, int limit, Fusion fusion) {
    return new SearchOpts(limit, o.mode(), o.files(), fusion, o.caseSensitive(),
        o.auxiliaryWeight(), o.contextBefore(), o.contextAfter(), o.wholeWords(), o.maxPerFile());
  }
}
