/**
 * prism-index core: the index seam, the literal fallback scanner, the {@code repo_search} tool surface
 * and the Lucene-free reference backend. Depends on the SLF4J API and Jackson only.
 *
 * <p>Only the API packages are exported. The in-memory backend's implementation
 * ({@code dev.prismindex.memory}) is reached through {@link dev.prismindex.index.InMemoryIndex};
 * {@code dev.prismindex.internal} holds helpers shared with the sibling modules, and is exported to
 * them alone (they are automatic modules: the engine and the command line, see
 * docs/architecture.md).
 */
@SuppressWarnings("module") // the qualified export names modules that are built after this one
module dev.prismindex.core {
  requires static transitive org.jspecify;
  requires org.slf4j;
  requires transitive com.fasterxml.jackson.databind;

  exports dev.prismindex.repository;
  exports dev.prismindex.index;
  exports dev.prismindex.tool;
  exports dev.prismindex.embed;
  exports dev.prismindex.internal to dev.prismindex.engine, dev.prismindex.cli;
  exports dev.prismindex.internal.regex to dev.prismindex.engine, dev.prismindex.cli;

  uses dev.prismindex.embed.EmbedderProvider;
}
