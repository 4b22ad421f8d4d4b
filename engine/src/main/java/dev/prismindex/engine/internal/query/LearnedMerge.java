package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.Hit;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A workspace's hybrid merge by calibrated scores: every hit of each repository's own search (the
 * repositories that hold places in the pooled answer) is a candidate, described by its place in
 * its repository's own order, its engine scores against its repository's best and the
 * workspace's best, and its repository's evidence (engine agreement, definition factor of its first
 * hit, repository prior, places in the pooled answer, size); a linear model fitted by a listwise
 * softmax on workspaces of the ranker's training trees (benchmarks' {@code
 * WorkspaceMergeTraining}, never a quality-benchmark corpus) scores them, and the places go to the
 * repositories in the order of their candidates' scores, each repository's places taking its own
 * hits in its own order. Turned on by {@code -Dprism.workspace.merge=learned}.
 */
public final class LearnedMerge {

  private LearnedMerge() {}

  /** Whether a hybrid workspace search merges by the learned model (else by pooled scores). */
  static final boolean ENABLED =
      "learned".equals(System.getProperty("prism.workspace.merge", "pooled"));

  /** The features of a candidate, in the weights' order. */
  public static final List<String> FEATURES = List.of("inv_rank", "log_rank", "score_ratio",
      "cosine", "cosine_gap", "semantic_missing", "lexical_ratio", "lexical_missing",
      "lexical_inv_rank", "semantic_inv_rank", "agreement", "log_definition", "log_prior",
      "place_share", "first_place_inv", "own_place_inv", "log_size", "repo_cosine_gap",
      "repo_lexical_share");

  /** The weights resource, one {@code name<TAB>weight} line per feature. */
  static final String RESOURCE = "/dev/prismindex/engine/internal/query/workspace-merge.tsv";

  /**
   * What a repository brings to the merge of one query.
   *
   * @param own its own search's hits, best first
   * @param agreement its engines' agreement ({@link WorkspaceSearch#agreement})
   * @param firstFactor the definition prior's factor of its own first hit
   * @param prior its repository prior's weight, in (0, 1]
   * @param chunks its index's chunks
   * @param pooledPlaces the indexes of its places in the pooled answer, ascending
   * @param pooledLexical its best BM25 score among the pooled answer's hits (merged statistics), 0
   *     when none has one
   */
  public record Repository(String name, List<Hit> own, double agreement, double firstFactor,
      double prior, long chunks, List<Integer> pooledPlaces, double pooledLexical) {}

  /**
   * A query's merge, for training: {@code answer} the default merge's (places by pooled scores),
   * {@code candidates} every repository's own hits with their features, {@code size} the pooled
   * answer's length.
   */
  public record Probe(List<Hit> answer, List<Candidate> candidates, int size) {}

  /** One candidate: {@code repo}'s hit at its own rank {@code ownRank} (1-based). */
  public record Candidate(String repo, int ownRank, Hit hit, double[] features) {}

  /**
   * The candidates of a query: each repository's own hits with their features. {@code size} is
   * the pooled answer's length.
   */
  public static List<Candidate> candidates(List<Repository> repos, int size) {
    double wsMax = Double.NEGATIVE_INFINITY;
    double wsMin = Double.POSITIVE_INFINITY;
    double wsLexical = 0;
    long total = 0;
    for (Repository r : repos) {
      for (Hit h : r.own()) {
        if (h.semantic() != null) {
          wsMax = Math.max(wsMax, h.semantic().score());
          wsMin = Math.min(wsMin, h.semantic().score());
        }
      }
      wsLexical = Math.max(wsLexical, r.pooledLexical());
      total += r.chunks();
    }
    if (wsMax == Double.NEGATIVE_INFINITY) {
      wsMax = 0;
      wsMin = 0;
    }
    double mean = Math.max(1.0, total / (double) Math.max(1, repos.size()));
    List<Candidate> out = new ArrayList<>();
    for (Repository r : repos) {
      if (r.own().isEmpty()) {
        continue;
      }
      double first = r.own().get(0).score();
      double repoCosine = wsMin;
      double repoLexical = 0;
      for (Hit h : r.own()) {
        if (h.semantic() != null) {
          repoCosine = Math.max(repoCosine, h.semantic().score());
        }
        if (h.lexical() != null) {
          repoLexical = Math.max(repoLexical, h.lexical().score());
        }
      }
      for (int i = 0; i < r.own().size(); i++) {
        Hit h = r.own().get(i);
        int rank = i + 1;
        double cosine = h.semantic() == null ? wsMin : h.semantic().score();
        double[] f = {
            1.0 / rank,
            Math.log(rank),
            first > 0 ? h.score() / first : 0,
            cosine,
            cosine - wsMax,
            h.semantic() == null ? 1 : 0,
            h.lexical() == null || repoLexical <= 0 ? 0 : h.lexical().score() / repoLexical,
            h.lexical() == null ? 1 : 0,
            h.lexical() == null ? 0 : 1.0 / Math.max(1, h.lexical().rank()),
            h.semantic() == null ? 0 : 1.0 / Math.max(1, h.semantic().rank()),
            r.agreement(),
            Math.log(Math.max(1e-6, r.firstFactor())),
            Math.log(Math.max(1e-6, r.prior())),
            r.pooledPlaces().size() / (double) Math.max(1, size),
            r.pooledPlaces().isEmpty() ? 0 : 1.0 / (1 + r.pooledPlaces().get(0)),
            i < r.pooledPlaces().size() ? 1.0 / (1 + r.pooledPlaces().get(i)) : 0,
            Math.log(Math.max(1, r.chunks()) / mean),
            repoCosine - wsMax,
            wsLexical > 0 ? r.pooledLexical() / wsLexical : 0};
        out.add(new Candidate(r.name(), rank, h, f));
      }
    }
    return out;
  }

  /**
   * The first {@code size} places of the merge of {@code candidates} by {@code weights}: places
   * go to repositories in the order of their candidates' scores (ties: the lower own rank, then
   * the repository's name), and a repository's places take its own hits in its own order. Each hit
   * is named after its repository.
   */
  public static List<Hit> order(List<Candidate> candidates, double[] weights, int size) {
    Map<String, Iterator<Candidate>> own = new HashMap<>();
    for (Candidate c : candidates) {
      own.computeIfAbsent(c.repo(), k -> candidates.stream()
          .filter(x -> x.repo().equals(k))
          .sorted(Comparator.comparingInt(Candidate::ownRank)).iterator());
    }
    List<Hit> out = new ArrayList<>();
    for (Candidate c : places(candidates, weights, size)) {
      out.add(own.get(c.repo()).next().hit().withRepo(c.repo()));
    }
    return out;
  }

  /**
   * The {@code size} best candidates by {@code weights}, best first (ties: the lower own rank,
   * then the repository's name): the {@code i}-th names the repository of the {@code i}-th place.
   */
  public static List<Candidate> places(List<Candidate> candidates, double[] weights, int size) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    Map<Candidate, Double> score = new HashMap<>();
    for (Candidate c : candidates) {
      double s = 0;
      for (int j = 0; j < weights.length; j++) {
        s += weights[j] * c.features()[j];
      }
      score.put(c, s);
    }
    sorted.sort(Comparator.comparingDouble((Candidate c) -> -score.get(c))
        .thenComparingInt(Candidate::ownRank).thenComparing(Candidate::repo));
    return sorted.subList(0, Math.min(size, sorted.size()));
  }

  private static volatile double[] weights;

  /** The model's weights, read once from {@link #RESOURCE}. */
  static double[] weights() {
    double[] w = weights;
    if (w == null) {
      try (InputStream in = LearnedMerge.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("missing resource " + RESOURCE);
        }
        w = parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      weights = w;
    }
    return w;
  }

  /** Weights from {@code name<TAB>weight} lines ({@code #} comments), every feature named once. */
  static double[] parse(BufferedReader in) throws IOException {
    double[] w = new double[FEATURES.size()];
    boolean[] seen = new boolean[w.length];
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] p = line.split("\t");
      int j = FEATURES.indexOf(p[0]);
      if (j < 0 || p.length != 2 || seen[j]) {
        throw new IllegalArgumentException("bad merge weight line: " + line);
      }
      w[j] = Double.parseDouble(p[1]);
      seen[j] = true;
    }
    for (int j = 0; j < w.length; j++) {
      if (!seen[j]) {
        throw new IllegalArgumentException("no merge weight for " + FEATURES.get(j));
      }
    }
    return w;
  }
}
