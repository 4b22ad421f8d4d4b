package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The last step of the definition prior for a sentence ({@link DefinitionMatch}): the first hit's
 * file is asked once more and its best-said function may take the first place ({@link #promote}).
 */
final class InFilePromotion {

  private InFilePromotion() {}

  /**
   * Whether the in-file promotion runs ({@link #promote}). The property is for measuring.
   */
  static final boolean IN_FILE =
      Boolean.parseBoolean(System.getProperty("prism.rank.inFile", "true"));

  /** How many chunks of the first hit's file {@link #promote} asks the lexical engine for. */
  static final int IN_FILE_DEPTH = Integer.getInteger("prism.rank.inFileDepth", 20);

  /** The lexical engine's chunks of the file of {@code first} for the query, best first. */
  @FunctionalInterface
  interface FileChunks {
    List<Integer> chunks(ChunkDoc first, int depth) throws IOException;
  }

  /**
   * For a sentence, the first hit's file is more often right than the first hit: a type's header,
   * a constructor, a window between definitions or a sibling whose doc comment resembles the
   * sentence comes first, while the described function, whose own doc says nothing more, ranks
   * lower or not at all (neither engine's cut reached it). So the first hit's file is asked of
   * the lexical engine once more ({@code inFile}, {@link #IN_FILE_DEPTH} chunks), and its
   * functions and members compete with the first hit by the definition prior's factor alone
   * ({@link DefinitionMatch#factor}: name, code and signature shares): the one whose factor is
   * the largest, when it exceeds the first hit's, takes the first place and its score; the former
   * first hit is second. Competing are the functions the first {@link DefinitionMatch#CODE_DEPTH}
   * candidates do not hold (those were weighed with their factor already: {@link
   * DefinitionMatch#apply}); when the first hit is not a function's (a plain window, a
   * constructor, a type, a language hook: {@link #hook}) the file's
   * candidates among them too, and otherwise the first hit's overloads among them ({@link
   * #overload}: the same name; siblings of other names keep their places). Constructors and hooks
   * never compete. {@code fused} is in its
   * final order ({@link DefinitionMatch#apply}).
   *
   * @return the chunk that took the first place, -1 when none did
   */
  static int promote(List<HybridFuser.Fused> fused, String query, DefinitionMatch.Chunks chunks,
      DefinitionMatch.Lines lines, IntFunction<@Nullable String> repos, FileChunks inFile,
      CodeAnalyzer analyzer) throws IOException {
    return promote(fused, query, chunks, lines, repos, inFile, analyzer,
        new DefinitionMatch.Factors());
  }

  /** {@link #promote} with the search's {@code factors} (its query's). */
  static int promote(List<HybridFuser.Fused> fused, String query, DefinitionMatch.Chunks chunks,
      DefinitionMatch.Lines lines, IntFunction<@Nullable String> repos, FileChunks inFile,
      CodeAnalyzer analyzer, DefinitionMatch.Factors factors) throws IOException {
    if (!IN_FILE || fused.isEmpty() || !LexicalSearcher.isProse(query)) {
      return -1;
    }
    Set<String> stems = analyzer.proseTerms(query, SentenceShares.MAX_TERMS);
    Set<String> lead = NameConventions.lead(query);
    ResultType result = ResultType.implied(query, lead);
    HybridFuser.Fused first = fused.get(0);
    ChunkDoc top = chunks.chunk(first.doc());
    String repo = repos.apply(first.doc());
    String topDefinition = RankedSearch.definition(top);
    RankFeatures.FileLines topFile = RankFeatures.once(() -> lines.lines(first.doc()));
    int topKind = RankFeatures.kind(top, topFile);
    boolean weakTop = topKind == 0 || topKind == 2 || RankFeatures.isType(top, topFile)
        || hook(top.symbolNames().get(0));
    int weighed = weakTop ? 1 : Math.min(DefinitionMatch.CODE_DEPTH, fused.size());
    Map<Integer, Integer> places = new HashMap<>();
    for (int i = 1; i < fused.size(); i++) {
      places.put(fused.get(i).doc(), i);
    }
    String topName = top.symbolNames().isEmpty() ? "" : top.symbolNames().get(0);
    Set<Integer> rivals = new LinkedHashSet<>();
    for (int i = 1; i < fused.size(); i++) {
      int doc = fused.get(i).doc();
      if (i >= weighed || OVERLOADS && overload(chunks.chunk(doc), top, topName)) {
        rivals.add(doc);
      }
    }
    List<Integer> found = inFile.chunks(top, Math.max(IN_FILE_DEPTH, OVERLOAD_DEPTH));
    for (int k = 0; k < found.size(); k++) {
      int doc = found.get(k);
      if (k >= IN_FILE_DEPTH) { // deeper, only the first hit's overloads
        if (OVERLOADS && overload(chunks.chunk(doc), top, topName)) {
          rivals.add(doc);
        }
        continue;
      }
      Integer place = places.get(doc);
      if (place == null || place >= weighed
          || OVERLOADS && overload(chunks.chunk(doc), top, topName)) {
        rivals.add(doc);
      }
    }
    int best = -1;
    double bestFactor =
        DefinitionMatch.factor(first.doc(), top, stems, lead, result, lines, analyzer, factors);
    for (int doc : rivals) {
      ChunkDoc c = chunks.chunk(doc);
      RankFeatures.FileLines file = RankFeatures.once(() -> lines.lines(doc));
      int kind = RankFeatures.kind(c, file);
      if (doc == first.doc() || kind != 4 && kind != 5 || RankFeatures.isType(c, file)
          || hook(c.symbolNames().get(0)) || !top.path().equals(c.path())
          || !Objects.equals(repo, repos.apply(doc))
          || RankedSearch.definition(c).equals(topDefinition)) {
        continue;
      }
      double f = DefinitionMatch.factor(doc, c, stems, lead, result, lines, analyzer, factors);
      if (f > bestFactor) {
        best = doc;
        bestFactor = f;
      }
    }
    if (best < 0) {
      return -1;
    }
    Integer at = places.get(best);
    HybridFuser.Fused promoted = at == null ? new HybridFuser.Fused(best, null, null, 0)
        : fused.remove((int) at);
    fused.add(0, new HybridFuser.Fused(promoted.doc(), promoted.lexical(), promoted.semantic(),
        first.score()));
    return best;
  }

  /**
   * Whether {@code c} is another definition of the first hit's name in its file (an overload:
   * {@code swap(float[], int, int)} beside {@code swap(float[], int, int, int)}), which competes
   * with the first hit in {@link #promote} even when the first {@link DefinitionMatch#CODE_DEPTH}
   * candidates hold it: overloads share their name, their doc comments and most of their code, so
   * the fusion cannot tell them apart and their signatures and code decide. The property is for
   * measuring.
   */
  private static boolean overload(ChunkDoc c, ChunkDoc top, String topName) {
    return !topName.isEmpty() && !c.symbolNames().isEmpty()
        && topName.equals(c.symbolNames().get(0)) && top.path().equals(c.path());
  }

  /**
   * How many chunks of the first hit's file {@link #promote} asks for to find its overloads
   * ({@link #overload}; the first {@link #IN_FILE_DEPTH} compete whatever their name): overloads
   * share name, doc and most code, so the lexical engine cannot tell them apart either, and in a
   * long file of many (ArrayUtils's {@code isEmpty} for each array type) the one a sentence
   * describes is often below the first 20 (ArrayUtils: 435 chunks, 9 of them {@code isEmpty}).
   * The property is for measuring.
   */
  static final int OVERLOAD_DEPTH = Integer.getInteger("prism.rank.overloadDepth", 100);

  /** Whether {@link #promote} lets the first hit's overloads compete ({@link #overload}). */
  static final boolean OVERLOADS =
      Boolean.parseBoolean(System.getProperty("prism.rank.overloads", "true"));

  /**
   * Whether {@code name} is one the language calls rather than one that says what the code does: a
   * TypeScript or JavaScript {@code constructor}, a Python special method ({@code __init__},
   * {@code __iter__}).
   */
  static boolean hook(String name) {
    return name.equals("constructor")
        || name.length() > 4 && name.startsWith("__") && name.endsWith("__");
  }
}
