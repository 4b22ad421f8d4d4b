package dev.prismindex.tool;

/** The repo_search tool (skeleton). */
public final class RepoSearchTool {
  private RepoSearchTool() {}
}
