package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The learned ranker's weights resource and its features of candidates. */
class LearnedRankerTest {

  private static final CodeAnalyzer ANALYZER = new CodeAnalyzer();

  @Test
  void theShippedWeightsLoadWithTheirVersionAndOneWeightPerFeature() {
    LearnedRanker r = LearnedRanker.shipped();
    assertThat(r.version()).startsWith("prism-ranker-");
    assertThat(r.score(new double[RankFeatures.NAMES.size()])).isFinite();
    assertThat(RankFeatures.NAMES).hasSize(2 * RankFeatures.BASE.size()).doesNotHaveDuplicates();
  }

  @Test
  void weightsForOtherFeaturesAreRefused() {
    String missing = "version\tx\nbias\t0\nlex_rrf\t1\n";
    assertThatThrownBy(() -> LearnedRanker.read(
        new ByteArrayInputStream(missing.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IOException.class).hasMessageContaining("lex_rrf");
  }

  @Test
  void boostedTreesAddTheirLeavesAndSurviveTheResourcesForm() throws IOException {
    int n = RankFeatures.NAMES.size();
    int lex = RankFeatures.NAMES.indexOf("lex_rrf");
    int sem = RankFeatures.NAMES.indexOf("sem_rrf");
    double[] w = new double[n];
    w[lex] = 2;
    // Depth 2: the root splits on lex_rrf at 0.5, its left child on nothing (every candidate goes
    // left), its right child on sem_rrf at 0.25.
    LearnedRanker.Tree tree = new LearnedRanker.Tree(2, new int[] {lex, -1, sem},
        new double[] {0.5, 0, 0.25}, new double[] {-1, 7, 0.125, 3});
    LearnedRanker model = new LearnedRanker("prism-ranker-test", 0.5, w, List.of(tree));
    double[] x = new double[n];
    x[lex] = 0.4;
    assertThat(model.score(x)).isEqualTo(0.5 + 0.8 - 1);
    x[lex] = 0.75;
    assertThat(model.score(x)).isEqualTo(0.5 + 1.5 + 0.125);
    x[sem] = 0.3;
    assertThat(model.score(x)).isEqualTo(0.5 + 1.5 + 3);
    LearnedRanker read = LearnedRanker.read(new ByteArrayInputStream(
        model.format("# a test\n").getBytes(StandardCharsets.UTF_8)));
    assertThat(read.version()).isEqualTo("prism-ranker-test");
    assertThat(read.score(x)).isEqualTo(model.score(x));
    assertThat(read.format("")).isEqualTo(model.format(""));
  }

  @Test
  void aTreeOfTheWrongShapeOrOnAnUnknownFeatureIsRefused() {
    StringBuilder linear = new StringBuilder("version\tx\nbias\t0\n");
    for (String name : RankFeatures.NAMES) {
      linear.append(name).append("\t0\n");
    }
    for (String tree : List.of("tree\t1\tlex_rrf>0.5\t1", "tree\t1\tno_such>0.5\t1 2",
        "tree\t2\tlex_rrf>0.5\t1 2 3 4", "tree\t1\tlex_rrf>0.5")) {
      assertThatThrownBy(() -> LearnedRanker.read(new ByteArrayInputStream(
          (linear + tree + "\n").getBytes(StandardCharsets.UTF_8))))
          .as(tree).isInstanceOf(IOException.class).hasMessageContaining("tree");
    }
  }

  private static ChunkDoc doc(String id, String path, int start, int end, int line, String name,
      String parent) {
    return new ChunkDoc(path + "#" + id, path, start, end,
        line == 0 ? new int[0] : new int[] {line}, line == 0 ? List.of() : List.of(name),
        "java", parent);
  }

  @Test
  void featuresDescribeEachCandidateFromWhatTheStoreReturns() throws IOException {
    Map<Integer, ChunkDoc> docs = Map.of(
        0, doc("0", "src/StopWatch.java", 1, 30, 12, "StopWatch", null),
        1, doc("1", "src/StopWatch.java", 31, 40, 33, "StopWatch", "StopWatch"),
        2, doc("2", "src/StopWatch.java", 41, 60, 45, "split", "StopWatch"),
        3, doc("3", "test/StopWatchTest.java", 1, 20, 0, null, null));
    List<Candidate> lex = List.of(new Candidate(2, 1, 8, new double[] {4, 4, 0, 0}),
        new Candidate(3, 2, 4, new double[] {4, 0, 0, 0}));
    List<Candidate> sem = List.of(new Candidate(0, 1, 0.8), new Candidate(2, 2, 0.6),
        new Candidate(1, 3, 0.5));
    List<RankFeatures.Row> rows = RankFeatures.of("StopWatch", Set.of("stopwatch", "stop",
        "watch"), lex, sem, 50, docs::get, ANALYZER, 0.5, hand(lex, sem));
    assertThat(rows).extracting(RankFeatures.Row::doc).containsExactly(2, 3, 0, 1);
    double[] split = rows.get(0).features();
    assertThat(f(split, "lex_in")).isEqualTo(1);
    assertThat(f(split, "lex_rrf")).isEqualTo(1);
    assertThat(f(split, "bm25_body")).isEqualTo(0.5);
    assertThat(f(split, "bm25_symbol")).isEqualTo(0.5);
    assertThat(f(split, "sem_in")).isEqualTo(1);
    assertThat(f(split, "sem_gap")).isCloseTo(-0.2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(f(split, "both")).isEqualTo(1);
    assertThat(f(split, "kind_member")).isEqualTo(1);
    assertThat(f(split, "defines")).isZero();
    assertThat(f(split, "file_count")).isPositive();
    assertThat(f(rows.get(1).features(), "auxiliary")).isEqualTo(1);
    assertThat(f(rows.get(1).features(), "kind_window")).isEqualTo(1);
    double[] type = rows.get(2).features();
    assertThat(f(type, "kind_type")).isEqualTo(1);
    assertThat(f(type, "defines")).isEqualTo(1);
    assertThat(f(type, "name_terms")).isEqualTo(1);
    assertThat(f(type, "lex_in")).isZero();
    assertThat(f(rows.get(3).features(), "kind_constructor")).isEqualTo(1);
    // A name is not prose: the prose copies stay zero.
    for (RankFeatures.Row r : rows) {
      for (String b : RankFeatures.BASE) {
        assertThat(f(r.features(), b + "_p")).isZero();
      }
    }
    // The order is the model's, its scores in (0, 1) and sorted.
    List<HybridFuser.Fused> ranked = LearnedRanker.shipped().rank(rows);
    for (int i = 1; i < ranked.size(); i++) {
      assertThat(ranked.get(i).score()).isBetween(0.0, ranked.get(i - 1).score());
    }
  }

  @Test
  void aSentenceFillsTheProseCopies() throws IOException {
    ChunkDoc c = doc("0", "src/A.java", 1, 10, 2, "split", "A");
    List<RankFeatures.Row> rows = RankFeatures.of("Splits the time of the watch into laps",
        Set.of("splits", "time", "watch", "laps"), List.of(new Candidate(0, 1, 2,
            new double[] {1, 1, 0, 0})), List.of(), 50, d -> c, ANALYZER, 1,
        hand(List.of(new Candidate(0, 1, 2, new double[] {1, 1, 0, 0})), List.of()));
    double[] x = rows.get(0).features();
    for (String b : RankFeatures.BASE) {
      assertThat(f(x, b + "_p")).as(b).isEqualTo(f(x, b));
    }
  }

  @Test
  void theHandStacksSignalsAreFeaturesOfEachCandidate() throws IOException {
    String query = "Splits the time of the watch into laps";
    List<String> file = List.of(
        "class Watch {",
        "  /** Splits the time into laps. */",
        "  void splitLaps(long time) {",
        "    laps.add(time);",
        "  }",
        "  void reset() {",
        "    laps.clear();",
        "  }",
        "}");
    Map<Integer, ChunkDoc> docs = Map.of(
        0, doc("0", "src/Watch.java", 2, 5, 3, "splitLaps", "Watch"),
        1, doc("1", "src/Watch.java", 1, 1, 1, "Watch", null),
        2, new ChunkDoc("src/w.py#2", "src/w.py", 1, 2, new int[] {1}, List.of("__iter__"),
            "python", "Watch"),
        3, doc("3", "src/Watch.java", 6, 8, 6, "reset", "Watch"));
    List<Candidate> lex = List.of(new Candidate(1, 1, 8, new double[] {4, 4, 0, 0}),
        new Candidate(2, 2, 4, new double[] {4, 0, 0, 0}), new Candidate(3, 3, 2,
            new double[] {2, 0, 0, 0}));
    List<Candidate> sem = List.of(new Candidate(2, 1, 0.8));
    // The hand stack's final order: the in-file promotion put splitLaps (returned by neither
    // engine) first; file coherence weighed the type's chunk by 1.25.
    List<HybridFuser.Fused> order = List.of(new HybridFuser.Fused(0, null, null, 1),
        new HybridFuser.Fused(1, lex.get(0), null, 0.9),
        new HybridFuser.Fused(3, lex.get(2), null, 0.5),
        new HybridFuser.Fused(2, lex.get(1), sem.get(0), 0.4));
    RankFeatures.Lines lines = d -> d == 2 ? null : file;
    List<RankFeatures.Row> rows = RankFeatures.of(query, ANALYZER.terms(query, 64), lex, sem, 50,
        docs::get, ANALYZER, 1, new RankFeatures.Hand(order, 0, Map.of(1, 1.25), lines));
    // The union (lexical first, then semantic), then the promoted function neither returned.
    assertThat(rows).extracting(RankFeatures.Row::doc).containsExactly(1, 2, 3, 0);
    double[] promoted = rows.get(3).features();
    assertThat(f(promoted, "hand_rrf")).isEqualTo(1);
    assertThat(f(promoted, "hand_first")).isEqualTo(1);
    assertThat(f(promoted, "promoted")).isEqualTo(1);
    assertThat(f(promoted, "lex_in")).isZero();
    assertThat(f(promoted, "sem_in")).isZero();
    // splitLaps: both name words said; its code (comment left out) and signature say some stems.
    Set<String> stems = ANALYZER.proseTerms(query, SentenceShares.MAX_TERMS);
    Set<String> lead = NameConventions.lead(query);
    DefinitionMatch.Shares shares = DefinitionMatch.shares(0, docs.get(0), stems, lead,
        ResultType.implied(query, lead), lines::lines, ANALYZER);
    assertThat(f(promoted, "name_share")).isEqualTo(1);
    assertThat(f(promoted, "code_share")).isEqualTo(shares.code()).isPositive();
    assertThat(f(promoted, "signature_share")).isEqualTo(shares.signature())
        .isPositive();
    assertThat(f(promoted, "def_factor")).isCloseTo(Math.log((1 + DefinitionMatch.NAME_WEIGHT)
        * (1 + DefinitionMatch.CODE_WEIGHT * shares.code())
        * (1 + DefinitionMatch.SIGNATURE_WEIGHT * shares.signature())),
        org.assertj.core.data.Offset.offset(1e-12));
    assertThat(f(promoted, "coherence")).isZero();
    double[] type = rows.get(0).features();
    assertThat(f(type, "hand_rrf")).isEqualTo(11.0 / 12);
    assertThat(f(type, "hand_first")).isZero();
    assertThat(f(type, "promoted")).isZero();
    assertThat(f(type, "type_chunk")).isEqualTo(1);
    assertThat(f(type, "def_factor")).isCloseTo(Math.log(DefinitionMatch.TYPE_WEIGHT
        * (1 + DefinitionMatch.CODE_WEIGHT * f(type, "code_share"))
        * (1 + DefinitionMatch.SIGNATURE_WEIGHT * f(type, "signature_share"))),
        org.assertj.core.data.Offset.offset(1e-12));
    assertThat(f(type, "coherence")).isEqualTo(Math.log(1.25));
    double[] hook = rows.get(1).features();
    assertThat(f(hook, "hook")).isEqualTo(1);
    assertThat(f(hook, "hand_rrf")).isEqualTo(11.0 / 14);
    // a file changed since indexing: no code or signature share
    assertThat(f(hook, "code_share")).isZero();
    assertThat(f(hook, "signature_share")).isZero();
    assertThat(f(rows.get(2).features(), "hand_rrf")).isEqualTo(11.0 / 13);
    assertThat(f(rows.get(2).features(), "name_share")).isZero();
    // A sentence: the prose copies are the features.
    for (String b : RankFeatures.BASE) {
      assertThat(f(promoted, b + "_p")).as(b).isEqualTo(f(promoted, b));
    }
    // Against the others: splitLaps has the best definition factor of all and of its file, the
    // type's header stands below it by the difference of their factors; reset, in the same file,
    // shows its code share against splitLaps's; cosine and BM25 against the file's best where the
    // engine returned the candidate, -1 where it did not.
    assertThat(f(promoted, "def_gap")).isZero();
    assertThat(f(promoted, "def_gap_file")).isZero();
    assertThat(f(type, "def_gap_file")).isCloseTo(f(type, "def_factor") - f(promoted,
        "def_factor"), org.assertj.core.data.Offset.offset(1e-12)).isNegative();
    double[] reset = rows.get(2).features();
    assertThat(f(reset, "code_gap_file")).isEqualTo(f(reset, "code_share")
        - Math.max(f(promoted, "code_share"), f(type, "code_share")));
    assertThat(f(type, "lex_gap_file")).isZero();
    assertThat(f(reset, "lex_gap_file")).isEqualTo(f(reset, "lex_norm") - f(type, "lex_norm"))
        .isNegative();
    assertThat(f(promoted, "lex_gap_file")).isEqualTo(-1);
    assertThat(f(promoted, "sem_gap_file")).isEqualTo(-1);
    assertThat(f(hook, "sem_gap_file")).isZero();
  }

  @Test
  void aGoTypeIsATypeWhereItsFileIsRead() throws IOException {
    List<String> file = List.of(
        "package mux",
        "type Router struct {",
        "  routes []Route",
        "}",
        "func (r *Router) Handle(p string) {",
        "}",
        "func NewRouter() *Router {",
        "}",
        "type (",
        "  Handler interface {",
        "    Serve()",
        "  }",
        ")");
    Map<Integer, ChunkDoc> docs = Map.of(
        0, go("0", 2, 4, 2, "Router"),
        1, go("1", 5, 6, 5, "Handle"),
        2, go("2", 7, 8, 7, "NewRouter"),
        3, go("3", 9, 13, 10, "Handler"));
    List<Candidate> lex = List.of(new Candidate(0, 1, 8, new double[] {4, 4, 0, 0}),
        new Candidate(1, 2, 6, new double[] {4, 2, 0, 0}),
        new Candidate(2, 3, 4, new double[] {4, 0, 0, 0}),
        new Candidate(3, 4, 2, new double[] {2, 0, 0, 0}));
    String query = "Router";
    List<RankFeatures.Row> read = RankFeatures.of(query, ANALYZER.terms(query, 64), lex,
        List.of(), 50, docs::get, ANALYZER, 1, new RankFeatures.Hand(
            HybridFuser.fuse(lex, List.of(), Fusion.rrf(), 50), -1, Map.of(), d -> file));
    assertThat(read).extracting(r -> f(r.features(), "kind_type"))
        .containsExactly(1.0, 0.0, 0.0, 1.0);
    assertThat(read).extracting(r -> f(r.features(), "kind_function"))
        .containsExactly(0.0, 1.0, 1.0, 0.0);
    // Without the file (changed since indexing) the name cannot tell: Go capitalises both.
    List<RankFeatures.Row> unread = RankFeatures.of(query, ANALYZER.terms(query, 64), lex,
        List.of(), 50, docs::get, ANALYZER, 1, hand(lex, List.of()));
    assertThat(unread).extracting(r -> f(r.features(), "kind_function"))
        .containsExactly(1.0, 1.0, 1.0, 1.0);
  }

  private static ChunkDoc go(String id, int start, int end, int line, String name) {
    return new ChunkDoc("mux.go#" + id, "mux.go", start, end, new int[] {line}, List.of(name),
        "go", null);
  }

  /** The plain fusion's order of the candidates as the hand stack's, nothing promoted. */
  private static RankFeatures.Hand hand(List<Candidate> lex, List<Candidate> sem) {
    return new RankFeatures.Hand(HybridFuser.fuse(lex, sem, Fusion.rrf(), 50), -1, Map.of(),
        d -> null);
  }

  private static double f(double[] x, String name) {
    return x[RankFeatures.NAMES.indexOf(name)];
  }
}
