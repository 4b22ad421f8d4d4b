package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the learned ranker ({@link LearnedRanker}) knows of each HYBRID candidate: the union of
 * the lexical and the semantic engine's candidates, each described by {@link #NAMES} features
 * computed from what every store returns ({@link Candidate} with its per-field BM25 parts, the
 * {@link ChunkDoc}) and from the query alone, so any store that returns the same candidates gets
 * the same features, and the same order.
 *
 * <p>The base features, each also multiplied by "the query reads as prose" (suffix {@code _p}), so
 * one linear model weighs them differently for sentences and for names: whether each engine
 * returned the chunk, its reciprocal rank there ({@code 11 / (10 + rank)}; a chunk missing from a
 * ranking cut at the depth counts as ranked just below the cut), its BM25 relative to the best of
 * the query, split by field (body, symbol, path, prose), its cosine and the gap to the best cosine;
 * whether the chunk defines the query's name (the identifier guard's match) and the share of the
 * query's terms in its definition's name; the definition kind (a plain window, a piece of a
 * definition without its header, a constructor, a type, a member, a free function); whether its file is
 * auxiliary (the path prior, when it applies); the other candidates of its file (file coherence);
 * the chunk's length. Then what the hand-set stack (the default order: RRF, file coherence, the
 * definition prior and the in-file promotion, {@link Hand}) knows of it: its place in that
 * stack's final order ({@code 11 / (10 + place)}, and whether it is first), whether the in-file
 * promotion chose it, and for a sentence the definition prior's factor (its log) with its parts
 * (the name, code and signature shares), whether it is a type's chunk or a language hook, and the
 * file coherence factor (its log). The hand stack runs over the same candidates on every store,
 * so these too are the same for any store that returns them; a function the in-file promotion
 * brought from the first hit's file that neither engine returned is a candidate too.
 */
public final class RankFeatures {

  /** The base features, in order; the model has each of them and each times prose. */
  static final List<String> BASE = List.of("lex_in", "lex_rrf", "lex_norm", "bm25_body",
      "bm25_symbol", "bm25_path", "bm25_prose", "sem_in", "sem_rrf", "sem_cos", "sem_gap", "both",
      "defines", "name_terms", "kind_window", "kind_inside", "kind_constructor", "kind_type",
      "kind_member", "kind_function", "auxiliary", "file_count", "file_share", "length",
      "hand_rrf", "hand_first", "promoted", "def_factor", "name_share", "code_share",
      "signature_share", "type_chunk", "hook", "coherence", "def_gap", "def_gap_file",
      "code_gap_file", "sem_gap_file", "lex_gap_file", "doc_share");

  /**
   * The index of the first feature relative to the other candidates ({@link RelativeFeatures}): a
   * candidate's definition prior factor, code share, cosine and BM25 against the best of the
   * candidates (all of them, or its file's).
   */
  static final int RELATIVE = 34;

  /** The index of the share of the sentence a candidate's doc comment says. */
  static final int DOC_SHARE = 39;

  /** The index of the first of the hand stack's features ({@link Hand}) in {@link #BASE}. */
  static final int HAND = 24;

  /** Every feature's name, in the order of {@link Row#features()}. */
  public static final List<String> NAMES = names();

  private static List<String> names() {
    List<String> n = new ArrayList<>(BASE);
    for (String b : BASE) {
      n.add(b + "_p");
    }
    return List.copyOf(n);
  }

  /**
   * Languages whose type names start with a capital and whose functions' names mostly do not (a
   * capitalised function is told by its declaration, {@link #capitalisedType(ChunkDoc,
   * FileLines)}).
   */
  private static final Set<String> CAPITALISED_TYPES = Set.of("java", "python", "typescript",
      "tsx", "javascript", "rust");

  /** The rank constant of the reciprocal-rank features. */
  private static final int K = 10;

  /**
   * One candidate with its features.
   *
   * @param doc the chunk's id in the reader
   * @param lexical the lexical engine's candidate, if it returned the chunk
   * @param semantic the semantic engine's candidate, if it returned the chunk
   * @param chunk the chunk's stored fields
   * @param features the values of {@link #NAMES}, in order
   */
  public record Row(int doc, @Nullable Candidate lexical, @Nullable Candidate semantic,
      ChunkDoc chunk, double[] features) {}

  /** How the search reads a chunk's stored fields (once per query). */
  @FunctionalInterface
  public interface Chunks {
    ChunkDoc chunk(int doc) throws IOException;
  }

  private RankFeatures() {}

  /**
   * The hand-set stack's result for one search, as its features read it.
   *
   * @param order its final order (after the in-file promotion), every candidate of the union and
   *     the promoted function
   * @param promoted the chunk the in-file promotion put first, -1 when none
   * @param coherence the file coherence factor of each candidate (empty: none applied)
   * @param lines the chunks' lines in the working tree (the definition prior's code shares)
   */
  public record Hand(List<HybridFuser.Fused> order, int promoted, Map<Integer, Double> coherence,
      Lines lines) {}

  /** How the search reads a chunk's lines: null when its file changed since it was indexed. */
  @FunctionalInterface
  public interface Lines {
    @Nullable List<String> lines(int doc) throws IOException;
  }

  /**
   * The candidates of one search with their features, lexical candidates first (in their order),
   * then the semantic ones the lexical engine did not return.
   *
   * @param query the query as typed
   * @param terms its analyzed terms ({@link LexicalSearcher#terms})
   * @param depth the depth both rankings were asked for (the cut rule)
   * @param prior the path-prior weight, 1 when the prior does not apply
   * @param hand the hand-set stack's order of the same candidates
   */
  public static List<Row> of(String query, Set<String> terms, List<Candidate> lexical,
      List<Candidate> semantic, int depth, Chunks chunks, CodeAnalyzer analyzer, double prior,
      Hand hand) throws IOException {
    Map<Integer, Candidate[]> byChunk = new LinkedHashMap<>();
    for (Candidate c : lexical) {
      byChunk.computeIfAbsent(c.chunk(), k -> new Candidate[2])[0] = c;
    }
    for (Candidate c : semantic) {
      byChunk.computeIfAbsent(c.chunk(), k -> new Candidate[2])[1] = c;
    }
    Map<Integer, Integer> handPlace = new HashMap<>();
    for (HybridFuser.Fused f : hand.order()) {
      handPlace.putIfAbsent(f.doc(), handPlace.size() + 1);
      byChunk.computeIfAbsent(f.doc(), k -> new Candidate[2]);
    }
    String id = query.strip();
    String phrase = IdentifierGuard.namePhrase(id);
    boolean name = phrase != null || IdentifierGuard.isIdentifier(id);
    boolean prose = LexicalSearcher.isProse(query);
    Set<String> stems = prose ? analyzer.proseTerms(query, SentenceShares.MAX_TERMS) : Set.of();
    Set<String> lead = prose ? NameConventions.lead(query) : Set.of();
    ResultType result = prose ? ResultType.implied(query, lead) : null;
    double lexTop = lexical.isEmpty() ? 1 : Math.max(1e-9, lexical.get(0).score());
    double semTop = semantic.isEmpty() ? 0 : semantic.get(0).score();
    double semLast = semantic.isEmpty() ? 0 : semantic.get(semantic.size() - 1).score();
    double lexAbsent = lexical.size() >= depth ? rrf(depth + 1) : 0;
    double semAbsent = semantic.size() >= depth ? rrf(depth + 1) : 0;

    List<ChunkDoc> docs = new ArrayList<>(byChunk.size());
    double[] rrf = new double[byChunk.size()];
    Map<String, double[]> files = new HashMap<>(); // path -> {count, rrf sum}
    double total = 0;
    int i = 0;
    for (Map.Entry<Integer, Candidate[]> e : byChunk.entrySet()) {
      ChunkDoc c = chunks.chunk(e.getKey());
      docs.add(c);
      Candidate l = e.getValue()[0];
      Candidate s = e.getValue()[1];
      rrf[i] = (l == null ? lexAbsent : rrf(l.rank())) + (s == null ? semAbsent : rrf(s.rank()));
      double[] f = files.computeIfAbsent(c.path(), k -> new double[2]);
      f[0]++;
      f[1] += rrf[i];
      total += rrf[i];
      i++;
    }

    List<Row> rows = new ArrayList<>(byChunk.size());
    i = 0;
    int n = BASE.size();
    for (Map.Entry<Integer, Candidate[]> e : byChunk.entrySet()) {
      ChunkDoc c = docs.get(i);
      Candidate l = e.getValue()[0];
      Candidate s = e.getValue()[1];
      double[] x = new double[2 * n];
      x[0] = l != null ? 1 : 0;
      x[1] = l != null ? rrf(l.rank()) : lexAbsent;
      if (l != null) {
        x[2] = l.score() / lexTop;
        double[] parts = l.parts();
        if (parts.length == LexicalSearcher.PARTS) {
          x[3] = parts[LexicalSearcher.BODY_PART] / lexTop;
          x[4] = parts[LexicalSearcher.SYMBOL_PART] / lexTop;
          x[5] = parts[LexicalSearcher.PATH_PART] / lexTop;
          x[6] = parts[LexicalSearcher.PROSE_PART] / lexTop;
        }
      }
      x[7] = s != null ? 1 : 0;
      x[8] = s != null ? rrf(s.rank()) : semAbsent;
      x[9] = s != null ? s.score() : semantic.isEmpty() ? 0 : semLast;
      x[10] = semantic.isEmpty() ? 0 : x[9] - semTop;
      x[11] = x[0] * x[7];
      x[12] = name && IdentifierGuard.defines(c, id, phrase) ? 1 : 0;
      x[13] = nameTerms(c, terms, analyzer);
      int doc = e.getKey();
      FileLines file = once(() -> hand.lines().lines(doc));
      x[14 + featureKind(c, file)] = 1;
      x[20] = PathPrior.factor(c.path(), prior) < 1 ? 1 : 0;
      double[] f = files.get(c.path());
      x[21] = Math.log1p(f[0] - 1) / Math.log(2 * depth);
      x[22] = total > 0 ? f[1] / total : 0;
      x[23] = Math.log(Math.max(1, c.end() - c.start() + 1)) / Math.log(60);
      Integer place = handPlace.get(e.getKey());
      x[HAND] = place == null ? 0 : rrf(place);
      x[HAND + 1] = place != null && place == 1 ? 1 : 0;
      x[HAND + 2] = e.getKey() == hand.promoted() ? 1 : 0;
      if (prose) {
        DefinitionMatch.Shares d = DefinitionMatch.shares(e.getKey(), c, stems, lead, result,
            hand.lines()::lines, analyzer);
        x[HAND + 3] = Math.log(d.factor());
        x[HAND + 4] = d.name();
        x[HAND + 5] = d.code();
        x[HAND + 6] = d.signature();
        x[HAND + 9] = Math.log(hand.coherence().getOrDefault(e.getKey(), 1.0));
        x[DOC_SHARE] = d.doc();
      }
      x[HAND + 7] = isType(c, file) ? 1 : 0;
      x[HAND + 8] = !c.symbolNames().isEmpty() && InFilePromotion.hook(c.symbolNames().get(0))
          ? 1 : 0;
      rows.add(new Row(e.getKey(), l, s, c, x));
      i++;
    }
    RelativeFeatures.fill(rows);
    if (prose) {
      for (Row r : rows) {
        System.arraycopy(r.features(), 0, r.features(), n, n);
      }
    }
    return rows;
  }

  /** {@code lines}, read at most once. */
  static FileLines once(FileLines lines) {
    return new FileLines() {
      private boolean read;
      private @Nullable List<String> file;

      @Override
      public @Nullable List<String> lines() throws IOException {
        if (!read) {
          file = lines.lines();
          read = true;
        }
        return file;
      }
    };
  }

  /** {@code (K + 1) / (K + rank)}: 1 at rank 1. */
  private static double rrf(int rank) {
    return (K + 1.0) / (K + rank);
  }

  /** The share of the query's terms among the terms of the chunk's definition's name. */
  private static double nameTerms(ChunkDoc c, Set<String> terms, CodeAnalyzer analyzer) {
    if (terms.isEmpty() || c.symbolNames().isEmpty()) {
      return 0;
    }
    Set<String> nameTerms = analyzer.terms(c.symbolNames().get(0), LexicalSearcher.MAX_TERMS);
    int hit = 0;
    for (String t : terms) {
      if (nameTerms.contains(t)) {
        hit++;
      }
    }
    return (double) hit / terms.size();
  }

  /** How a decision reads the lines of a chunk's file: null when it cannot (changed, unread). */
  @FunctionalInterface
  interface FileLines {
    @Nullable List<String> lines() throws IOException;

    /** No lines: the decision goes by the name alone. */
    FileLines NONE = () -> null;
  }

  /**
   * A type's keyword before the name on its declaration's line: {@code class}, {@code interface},
   * {@code enum}, {@code record}, {@code type} (a TypeScript alias), {@code struct}, {@code trait},
   * {@code union}, {@code mod}, {@code impl}.
   */
  private static final Pattern TYPE_KEYWORD = Pattern.compile(
      "(?<![\\w$@.])@?(class|interface|enum|record|type|struct|trait|union|mod|impl)(?![\\w$])");

  /**
   * Whether the chunk's definition is a type: its name is capitalised, in a language that
   * capitalises types ({@link #CAPITALISED_TYPES}), it is not a constructor (named as the type it
   * sits in), and, when {@code file} gives the file's lines, its declaration's line says a type's
   * keyword before the name ({@link #TYPE_KEYWORD}): a function some library names in PascalCase
   * (TypeScript's {@code export function Get(...)}, a method {@code Clone()}) is a function. Where
   * the lines are not given, or the name is not on its line, the name decides. With {@link #goType},
   * the ranking's "is this a type" ({@link #typeDefinition}).
   */
  static boolean capitalisedType(ChunkDoc c, FileLines file) throws IOException {
    if (c.symbolNames().isEmpty()) {
      return false;
    }
    String name = c.symbolNames().get(0);
    if (name.isEmpty() || !Character.isUpperCase(name.charAt(0)) || name.equals(c.parent())
        || !CAPITALISED_TYPES.contains(c.language().toLowerCase(Locale.ROOT))) {
      return false;
    }
    String before = beforeName(c, file);
    return before == null || TYPE_KEYWORD.matcher(before).find();
  }

  /**
   * Whether the hand-set stack takes a Go type ({@link #goType}) for a type, as the ranker's
   * features always do ({@link #featureKind}); {@code -Dprism.rank.goTypes=false} turns it off
   * (docs/engine.md, the definition prior).
   */
  private static final boolean HAND_GO_TYPES =
      Boolean.parseBoolean(System.getProperty("prism.rank.goTypes", "true"));

  /**
   * A Go type's declaration before its name: {@code type}, or nothing (a spec of a {@code type
   * (...)} group); a function's or method's says {@code func}.
   */
  private static final Pattern GO_TYPE_PREFIX = Pattern.compile("\\s*(type\\s+)?");

  /**
   * Whether the chunk's definition is a Go type ({@code type Router struct}, {@code type Handler
   * interface}, a spec of a {@code type (...)} group), read from its declaration's line; without
   * {@code file}'s lines, or the name not on its line, it is not (Go capitalises exported
   * functions and types alike, so the name cannot tell).
   */
  static boolean goType(ChunkDoc c, FileLines file) throws IOException {
    if (c.symbolNames().isEmpty() || !"go".equalsIgnoreCase(c.language())) {
      return false;
    }
    String before = beforeName(c, file);
    return before != null && GO_TYPE_PREFIX.matcher(before).matches();
  }

  /**
   * The text of the chunk's declaration's line before its definition's name (the name found as a
   * whole word), or null when {@code file} gives no lines, the line lies past the file's end or
   * the name is not on it.
   */
  private static @Nullable String beforeName(ChunkDoc c, FileLines file) throws IOException {
    List<String> lines = file.lines();
    int line = c.symbolLine();
    if (lines == null || line < 1 || line > lines.size()) {
      return null;
    }
    String declaration = lines.get(line - 1);
    int at = wordAt(declaration, c.symbolNames().get(0));
    return at < 0 ? null : declaration.substring(0, at);
  }

  /**
   * Whether the chunk belongs to a type rather than a function (its header, or a piece of it
   * without the header): its definition is a type by {@link #typeDefinition}.
   */
  static boolean isType(ChunkDoc c, FileLines file) throws IOException {
    int kind = kind(c, file);
    return kind == 3 || kind == 1 && typeDefinition(c, file, HAND_GO_TYPES);
  }

  /**
   * Whether the chunk's definition is a type: {@link #capitalisedType(ChunkDoc, FileLines)} (a
   * capitalised name in a language that capitalises types, not a constructor, and a type's keyword
   * on its declaration's line when {@code file} gives it), or, with {@code goTypes}, a Go type
   * ({@link #goType}).
   */
  private static boolean typeDefinition(ChunkDoc c, FileLines file, boolean goTypes)
      throws IOException {
    return capitalisedType(c, file) || goTypes && goType(c, file);
  }

  /** Where {@code word} first stands in {@code line} as a whole identifier, -1 when nowhere. */
  private static int wordAt(String line, String word) {
    for (int at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) {
      int end = at + word.length();
      if ((at == 0 || !identifierPart(line.charAt(at - 1)))
          && (end == line.length() || !identifierPart(line.charAt(end)))) {
        return at;
      }
    }
    return -1;
  }

  private static boolean identifierPart(char ch) {
    return ch == '$' || ch == '_' || Character.isLetterOrDigit(ch);
  }

  /**
   * The kind of the chunk's definition: 0 a plain window (no definition), 1 a piece of a
   * definition without its header (a doc comment, a window of a long body, the lines of a type
   * between its members), 2 a constructor (named as the type it sits in), 3 a type ({@link
   * #typeDefinition}: by its capitalised name in the languages that capitalise types, and its
   * declaration's keyword when {@code file} gives its lines; a Go type by its declaration's line),
   * 4 a member, 5 a free function.
   */
  static int kind(ChunkDoc c, FileLines file) throws IOException {
    return kind(c, file, HAND_GO_TYPES);
  }

  /**
   * The kind of the chunk's definition as the ranker's features tell it: {@link #kind}, and a Go
   * type ({@link #goType}) is a type where its file is read.
   */
  static int featureKind(ChunkDoc c, FileLines file) throws IOException {
    return kind(c, file, true);
  }

  private static int kind(ChunkDoc c, FileLines file, boolean goTypes) throws IOException {
    if (c.symbolLines().length == 0) {
      return 0;
    }
    int line = c.symbolLine();
    if (line < c.start() || line > c.end()) {
      return 1;
    }
    String name = c.symbolNames().get(0);
    if (name.equals(c.parent())) {
      return 2;
    }
    if (typeDefinition(c, file, goTypes)) {
      return 3;
    }
    return c.parent() != null ? 4 : 5;
  }
}
