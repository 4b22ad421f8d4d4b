/**
 * prism-index core: the index seam, the literal fallback scanner, the {@code repo_search} tool surface
 * and the Lucene-free reference backend. Depends on the SLF4J API and Jackson only.
 */
module dev.prismindex.core {
  requires static transitive org.jspecify;
  requires org.slf4j;
  requires transitive com.fasterxml.jackson.databind;

  exports dev.prismindex.repository;
  exports dev.prismindex.index;
  exports dev.prismindex.tool;
  exports dev.prismindex.embed;
  exports dev.prismindex.memory;

  uses dev.prismindex.embed.EmbedderProvider;
}
