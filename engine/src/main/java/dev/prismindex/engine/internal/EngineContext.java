package dev.prismindex.engine.internal;

import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;

/**
 * What the parts of one open index share: its options, its store (the local Lucene store or a
 * plugged one), the semantic availability, the analyzer, the chunker (its tree-sitter parsers)
 * and the file rules.
 */
public record EngineContext(HybridIndexOptions options, StoreAccess store,
    SemanticAvailability semantic, CodeAnalyzer analyzer, Chunker chunker, FileRules rules) {

  /** A walker of the repository with this index's rules. */
  public RepoWalker walker() {
    return new RepoWalker(options.root(), options.home(), rules);
  }
}
