package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The definition prior of a HYBRID search for a sentence ({@link LexicalSearcher#isProse}): a
 * sentence that describes what a function does usually says its name ({@code "Resumes the stopwatch
 * after a suspend"} names {@code resume}) and words of its code, so among candidates of similar
 * fused score the definition whose own name and code say the sentence comes first. A function's
 * fused score is multiplied by 1 + {@link #NAME_WEIGHT} (0.5) x the share of its definition's name
 * words (split at case changes, digits and underscores, stemmed as English prose) found among the
 * query's prose stems (a name word of three letters or more also when it begins one: {@code dir},
 * "directory"), its first word by the code conventions when it is one of theirs ({@link
 * NameConventions#lead}: {@code hasPrevious} for "Checks whether there are any previous tokens",
 * {@code toPrimitive} not for "Checks if an array is empty", though "is" and "to" are no stems); a
 * chunk of a type (its header, the lines between its members) by {@link #TYPE_WEIGHT} (0.8),
 * whether or not the sentence names the type: a sentence describes what a function does, and the
 * type it names is usually the one the function works on ({@code "Returns a copy of this
 * OffsetDateTime with ..."}); a type's name alone is the identifier guard's. For the same reason a
 * constructor's name (its type's) does not count. The first {@link #CODE_DEPTH} candidates are then
 * multiplied by 1 + {@link #CODE_WEIGHT} (1) x the share of the query's stems their code says
 * ({@link SentenceShares#codeShare}: the chunk's lines in the working tree, comment lines and
 * docstrings left out), so that a sibling whose doc comment resembles the sentence does not pass
 * the function whose code does what it says, and by 1 + {@link #SIGNATURE_WEIGHT} (0.5) x the share
 * its declaration says ({@link SentenceShares#signature}: an overload's parameter types), and by 1
 * + 0.5 when that declaration returns the result the sentence implies ({@link ResultType}: a
 * predicate's boolean, a count's integer); a candidate whose file changed since it was indexed
 * keeps its score there. Then the list is sorted again (stable), the places each file holds among
 * the first {@link #CODE_DEPTH} are given to its candidates by their factor once more ({@link
 * #fileOrder}), and the scores brought back into [0, 1]. Last, {@link InFilePromotion#promote} lets
 * the first hit's file's best-said function take the first place. Sentences only: an identifier or
 * a name phrase is the identifier guard's.
 */
final class DefinitionMatch {

  /**
   * The weight of a fully named definition: its fused score times 1 + this. The property is for
   * measuring.
   */
  static final double NAME_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.nameWeight", "0.5"));

  /**
   * The factor of a type's chunk (its header, or the lines between its members; {@link #isType})
   * for a sentence. The property is for measuring.
   */
  static final double TYPE_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.typeWeight", "0.8"));

  /**
   * The weight of the share of the sentence's stems that a candidate's code says (its lines without
   * comment lines and docstrings, {@link SentenceShares#codeShare}): its fused score times 1 + this
   * x the share, for the first {@link #CODE_DEPTH} candidates. 0 turns it off. The property is for
   * measuring.
   */
  static final double CODE_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.codeWeight", "1"));

  /**
   * The weight of the share of the sentence's stems that a candidate's signature says (its
   * declaration, {@link SentenceShares#signature}), for the first {@link #CODE_DEPTH} candidates:
   * its score times 1 + this x the share. 0 turns it off. The property is for measuring.
   */
  static final double SIGNATURE_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.signatureWeight", "0.5"));

  /**
   * How much more the definition prior's factor counts between candidates of one file: the places
   * a file holds among the first {@link #CODE_DEPTH} go to its candidates in the order of score x
   * factor^this ({@link #fileOrder}). 0 turns it off. The property is for measuring.
   */
  static final double FILE_WEIGHT =
      Double.parseDouble(System.getProperty("prism.rank.fileWeight", "1"));

  /**
   * How many of the first fused candidates the code and signature shares are read for (50; 30
   * before: an answer the fusion ranks 31st to 50th whose code says the sentence reaches the first
   * ten more often). The property is for measuring.
   */
  static final int CODE_DEPTH = Integer.getInteger("prism.rank.codeDepth", 50);

  private DefinitionMatch() {}

  /**
   * Gives the places each file holds among the first {@link #CODE_DEPTH} candidates to that file's
   * candidates in the order of score x factor^{@link #FILE_WEIGHT} (higher first, stable), each
   * taking the score of its place: between the definitions of one file, what each one's own
   * name, signature and code say counts twice (with the weight 1), so that a sibling whose doc
   * comment resembles the sentence passes the definition the sentence describes less often. The
   * files keep their places.
   */
  private static void fileOrder(List<HybridFuser.Fused> fused, Map<Integer, Double> factors,
      Chunks chunks, IntFunction<@Nullable String> repos) throws IOException {
    int n = Math.min(CODE_DEPTH, fused.size());
    Map<String, List<Integer>> places = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      int doc = fused.get(i).doc();
      String repo = repos.apply(doc);
      String file = (repo == null ? "" : repo) + '\0' + chunks.chunk(doc).path();
      places.computeIfAbsent(file, k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> at : places.values()) {
      if (at.size() < 2) {
        continue;
      }
      List<HybridFuser.Fused> group = new ArrayList<>();
      for (int i : at) {
        group.add(fused.get(i));
      }
      List<HybridFuser.Fused> sorted = new ArrayList<>(group);
      sorted.sort(Comparator.comparingDouble((HybridFuser.Fused f) ->
          f.score() * Math.pow(factors.getOrDefault(f.doc(), 1.0), FILE_WEIGHT)).reversed());
      for (int k = 0; k < at.size(); k++) {
        HybridFuser.Fused f = sorted.get(k);
        fused.set(at.get(k), new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(),
            group.get(k).score()));
      }
    }
  }

  /** How the search reads a chunk's stored fields. */
  @FunctionalInterface
  interface Chunks {
    ChunkDoc chunk(int doc) throws IOException;
  }

  /** How the search reads a chunk's lines: null when its file changed since it was indexed. */
  @FunctionalInterface
  interface Lines {
    @Nullable List<String> lines(int doc) throws IOException;
  }

  /**
   * The definition prior's factor of chunk {@code c} for a sentence of {@code stems}: its name
   * share (or a type's {@link #TYPE_WEIGHT}; a constructor 1), times its code and signature
   * shares when {@code lines} is given and its file is unchanged.
   */
  static double factor(int doc, ChunkDoc c, Set<String> stems, Set<String> lead,
      @Nullable ResultType result, @Nullable Lines lines, CodeAnalyzer analyzer, Factors memo)
      throws IOException {
    Map<Integer, Double> known = lines == null ? memo.named : memo.read;
    Double f = known.get(doc);
    if (f == null) {
      f = factor(doc, c, stems, lead, result, lines, analyzer);
      known.put(doc, f);
    }
    return f;
  }

  /**
   * The definition prior's factors of one search's candidates ({@link #factor}), each computed
   * once: with file coherence a sentence's candidates are weighed twice (for the order without
   * coherence, then with it) and the in-file promotion weighs the first ones again. One per
   * search: its query's.
   */
  static final class Factors {
    /** Factors without the code and signature shares (beyond {@link #CODE_DEPTH}). */
    private final Map<Integer, Double> named = new HashMap<>();
    /** Factors with them, when the file is unchanged. */
    private final Map<Integer, Double> read = new HashMap<>();
  }

  private static double factor(int doc, ChunkDoc c, Set<String> stems, Set<String> lead,
      @Nullable ResultType result, @Nullable Lines lines, CodeAnalyzer analyzer)
      throws IOException {
    return shares(doc, c, stems, lead, result, lines, analyzer).factor();
  }

  /**
   * What the definition prior weighs of one chunk for a sentence: its name share ({@link
   * SentenceShares#nameShare}), the shares its code and its signature say ({@link
   * SentenceShares#codeShare}; 0 when its lines are not given, its file changed since indexing or
   * the weight is 0), and the factor they give (1 + {@link #NAME_WEIGHT} x the name share, or a
   * type's {@link #TYPE_WEIGHT}, a constructor's 1; times 1 + {@link #CODE_WEIGHT} x the code
   * share, times 1 + {@link #SIGNATURE_WEIGHT} x the signature share, times 1 + the implied
   * result's weight when its declaration returns it), and the share its doc comment says ({@link
   * SentenceShares#said}; the learned ranker's {@code doc_share}, which the factor leaves out).
   */
  record Shares(double name, double code, double signature, double factor, double doc) {}

  /** The {@link Shares} of chunk {@code c} for a sentence of {@code stems}. */
  static Shares shares(int doc, ChunkDoc c, Set<String> stems, Set<String> lead,
      @Nullable ResultType result, @Nullable Lines lines, CodeAnalyzer analyzer)
      throws IOException {
    double share =
        c.symbolNames().isEmpty() ? 0
            : SentenceShares.nameShare(c.symbolNames().get(0), stems, lead, analyzer);
    RankFeatures.FileLines read =
        lines == null ? RankFeatures.FileLines.NONE : RankFeatures.once(() -> lines.lines(doc));
    double factor = RankFeatures.isType(c, read) ? TYPE_WEIGHT
        : RankFeatures.kind(c, read) == 2 ? 1 : 1 + NAME_WEIGHT * share;
    double code = 0;
    double signature = 0;
    double docs = 0;
    if ((CODE_WEIGHT > 0 || SIGNATURE_WEIGHT > 0) && lines != null) {
      List<String> file = read.lines();
      if (file != null && c.end() <= file.size()) {
        SentenceShares.Said said = SentenceShares.said(file.subList(c.start() - 1, c.end()),
            file.subList(0, c.start() - 1), stems, analyzer);
        docs = said.doc();
        if (CODE_WEIGHT > 0) {
          code = said.code();
          factor *= 1 + CODE_WEIGHT * code;
        }
        List<String> declaration = c.symbolLines().length > 0
            ? SentenceShares.signature(file, c.symbolLine()) : List.of();
        if (SIGNATURE_WEIGHT > 0 && !declaration.isEmpty()) {
          signature = SentenceShares.codeShare(declaration, stems, analyzer);
          factor *= 1 + SIGNATURE_WEIGHT * signature;
        }
        if (result != null && !declaration.isEmpty() && result.declaredBy(declaration)) {
          factor *= 1 + result.weight;
        }
      }
    }
    return new Shares(share, code, signature, factor, docs);
  }

  /**
   * Re-scores {@code fused} in place by the definition prior for {@code query} and sorts it again
   * by {@link HybridFuser#ORDER}, the fusion's own order; leaves it as it is when the query is not
   * a sentence. {@code repos} gives a chunk's repository in a workspace (null in one repository),
   * so that two repositories' files at one path are two files.
   *
   * @return the factor of each of the first {@link #CODE_DEPTH} candidates by chunk (empty when
   *     the query is not a sentence)
   */
  static Map<Integer, Double> apply(List<HybridFuser.Fused> fused, String query, Chunks chunks,
      Lines lines, IntFunction<@Nullable String> repos, CodeAnalyzer analyzer) throws IOException {
    return apply(fused, query, chunks, lines, repos, analyzer, new Factors());
  }

  /**
   * {@link #apply} with the search's {@code memo} (its query's): a candidate weighed before is
   * not weighed again.
   */
  static Map<Integer, Double> apply(List<HybridFuser.Fused> fused, String query, Chunks chunks,
      Lines lines, IntFunction<@Nullable String> repos, CodeAnalyzer analyzer, Factors memo)
      throws IOException {
    if (NAME_WEIGHT == 0 && TYPE_WEIGHT == 1 && CODE_WEIGHT == 0 && SIGNATURE_WEIGHT == 0
        || !LexicalSearcher.isProse(query)) {
      return Map.of();
    }
    Set<String> stems = analyzer.proseTerms(query, SentenceShares.MAX_TERMS);
    Set<String> lead = NameConventions.lead(query);
    ResultType result = ResultType.implied(query, lead);
    Map<Integer, Double> factors = new HashMap<>();
    for (int i = 0; i < fused.size(); i++) {
      HybridFuser.Fused f = fused.get(i);
      double factor = factor(f.doc(), chunks.chunk(f.doc()), stems, lead, result,
          i < CODE_DEPTH ? lines : null, analyzer, memo);
      if (i < CODE_DEPTH) {
        factors.put(f.doc(), factor);
      }
      if (factor != 1) {
        fused.set(i, new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() * factor));
      }
    }
    fused.sort(HybridFuser.ORDER);
    if (FILE_WEIGHT > 0) {
      fileOrder(fused, factors, chunks, repos);
    }
    double top = fused.isEmpty() ? 1 : fused.get(0).score();
    if (top > 1) { // back into [0, 1]
      fused.replaceAll(f ->
          new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(), f.score() / top));
    }
    return factors;
  }
}
