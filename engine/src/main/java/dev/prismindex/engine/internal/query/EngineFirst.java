package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * An engine's own first candidate in the first hit's file, for a HYBRID search for a sentence
 * ({@link LexicalSearcher#isProse}): after the in-file promotion ({@link
 * DefinitionMatch#promoteInFile}), when the first hit is a function or member and the chosen
 * engine's first candidate ({@link #MODE}: the semantic engine's, the lexical engine's, or the one
 * both put first) is another function or member definition of the same file, that definition takes
 * the first place and the first hit's score; the former first hit is second. Types, constructors
 * and language hooks ({@link DefinitionMatch#hook}) never move up. With {@link #TOP} above 0 the
 * definition must already be among the first {@link #TOP} fused hits.
 */
final class EngineFirst {

  /** off, semantic, lexical or both. The property is for measuring. */
  static final String MODE = System.getProperty("prism.rank.engineFirstInFile", "off");

  /** How deep in the fused order the engine's first must already be (0: anywhere). */
  static final int TOP = Integer.getInteger("prism.rank.engineFirstTop", 0);

  private EngineFirst() {}

  static void apply(List<HybridFuser.Fused> fused, String query, List<Candidate> lexical,
      List<Candidate> semantic, DefinitionMatch.Chunks chunks,
      IntFunction<@Nullable String> repos) throws IOException {
    apply(fused, query, lexical, semantic, chunks, repos, MODE, TOP);
  }

  static void apply(List<HybridFuser.Fused> fused, String query, List<Candidate> lexical,
      List<Candidate> semantic, DefinitionMatch.Chunks chunks,
      IntFunction<@Nullable String> repos, String mode, int top) throws IOException {
    if (mode.equals("off") || fused.isEmpty() || !LexicalSearcher.isProse(query)) {
      return;
    }
    int pick;
    switch (mode) {
      case "semantic" -> pick = semantic.isEmpty() ? -1 : semantic.get(0).chunk();
      case "lexical" -> pick = lexical.isEmpty() ? -1 : lexical.get(0).chunk();
      case "both" -> {
        if (semantic.isEmpty() || lexical.isEmpty()) {
          return;
        }
        int s = semantic.get(0).chunk();
        int l = lexical.get(0).chunk();
        pick = s == l || RankedSearch.definition(chunks.chunk(s))
            .equals(RankedSearch.definition(chunks.chunk(l))) ? s : -1;
      }
      default -> throw new IllegalArgumentException("prism.rank.engineFirstInFile: " + mode);
    }
    if (pick < 0) {
      return;
    }
    HybridFuser.Fused first = fused.get(0);
    ChunkDoc head = chunks.chunk(first.doc());
    ChunkDoc c = chunks.chunk(pick);
    if (pick == first.doc() || !member(head) || !member(c) || !head.path().equals(c.path())
        || !Objects.equals(repos.apply(first.doc()), repos.apply(pick))) {
      return;
    }
    String definition = RankedSearch.definition(c);
    if (definition.equals(RankedSearch.definition(head))) {
      return;
    }
    int at = -1;
    for (int i = 1; i < fused.size(); i++) {
      if (fused.get(i).doc() == pick) {
        at = i;
        break;
      }
    }
    if (top > 0) {
      boolean near = false;
      for (int i = 1; i < Math.min(top, fused.size()); i++) {
        if (RankedSearch.definition(chunks.chunk(fused.get(i).doc())).equals(definition)) {
          near = true;
          break;
        }
      }
      if (!near) {
        return;
      }
    }
    HybridFuser.Fused promoted = at < 0 ? new HybridFuser.Fused(pick, null, null, 0)
        : fused.remove(at);
    fused.add(0, new HybridFuser.Fused(promoted.doc(), promoted.lexical(), promoted.semantic(),
        first.score()));
  }

  /** A function's or member's definition, not a type's, a constructor or a language hook. */
  private static boolean member(ChunkDoc c) {
    int kind = RankFeatures.kind(c);
    return (kind == 4 || kind == 5) && !DefinitionMatch.isType(c)
        && !DefinitionMatch.hook(c.symbolNames().get(0));
  }
}
