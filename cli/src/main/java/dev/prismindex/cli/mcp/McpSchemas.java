package dev.prismindex.cli.mcp;

/**
 * The output schemas of the MCP tools (JSON Schema, as the SDK publishes them in
 * {@code tools/list}): {@code repo_search}'s object and hits are the NDJSON schema of
 * {@code search --json} (docs/cli.md; {@code before}, {@code text} and {@code after} when context
 * lines were asked for), {@code index_status}'s and {@code reindex}'s the objects of
 * {@code status --json} and {@code index --json}. Documented once, in docs/agents.md.
 */
final class McpSchemas {
  private static final String NULLABLE_STRING = "{\"type\": [\"string\", \"null\"]}";
  private static final String NULLABLE_NUMBER = "{\"type\": [\"number\", \"null\"]}";

  private static final String HIT = """
      {"type": "object",
       "required": ["path", "line", "endLine", "snippet", "score", "mode", "language", "engines"],
       "properties": {
        "path": {"type": "string"}, "line": {"type": "integer"}, "endLine": {"type": "integer"},
        "snippet": {"type": "string"}, "score": {"type": "number"}, "mode": {"type": "string"},
        "language": {"type": "string"}, "symbol": %s,
        "engines": {"type": "object", "additionalProperties": {"type": "object",
          "required": ["rank", "score"],
          "properties": {"rank": {"type": "integer"}, "score": {"type": "number"}}}},
        "before": {"type": "array", "items": {"type": "string"}}, "text": {"type": "string"},
        "after": {"type": "array", "items": {"type": "string"}},
        "notSearched": {"type": "object", "additionalProperties": {"type": "integer"}}}}
      """.formatted(NULLABLE_STRING);

  static final String SEARCH_OUTPUT = """
      {"type": "object",
       "required": ["query", "mode", "modeChosen", "untrusted_index", "freshness", "hits"],
       "properties": {
        "query": {"type": "string"}, "mode": {"type": "string"},
        "modeChosen": {"type": "boolean"}, "modeReason": %s,
        "untrusted_index": {"type": "boolean"}, "schemaVersion": {"type": "integer"},
        "freshness": {"type": "object",
          "required": ["checked", "changedFiles", "refreshedFiles", "skippedBecauseLocked"],
          "properties": {"checked": {"type": "boolean"}, "changedFiles": {"type": "integer"},
            "refreshedFiles": {"type": "integer"}, "skippedBecauseLocked": {"type": "boolean"},
            "indexReadOnly": {"type": "boolean"}}},
        "semanticCoverage": %s, "tookMs": {"type": "integer"}, "truncated": {"type": "boolean"},
        "hits": {"type": "array", "items": %s},
        "notSearched": {"type": "object", "additionalProperties": {"type": "integer"}}}}
      """.formatted(NULLABLE_STRING, NULLABLE_NUMBER, HIT);

  static final String STATUS_OUTPUT = """
      {"type": "object",
       "required": ["state", "searchable", "repo", "indexDir", "files", "chunks"],
       "properties": {
        "state": {"type": "string",
          "enum": ["ready", "stale", "outdated", "missing", "corrupt", "incompatible"]},
        "searchable": {"type": "boolean"}, "problem": %1$s,
        "repo": {"type": "string"}, "indexDir": {"type": "string"},
        "files": {"type": "integer"}, "chunks": {"type": "integer"},
        "semanticCoverage": %2$s, "chunksEmbedded": {"type": "integer"},
        "semantic": %1$s, "semanticMessage": %1$s, "model": %1$s, "availableModel": %1$s,
        "revision": %1$s, "updatedAt": %1$s, "sizeOnDiskBytes": {"type": "integer"},
        "changes": {"type": ["object", "null"]}, "maxRefreshFiles": {"type": "integer"},
        "skipped": {"type": "integer"}, "skippedBy": {"type": "object"},
        "formatVersion": %1$s, "analyzerVersion": %1$s}}
      """.formatted(NULLABLE_STRING, NULLABLE_NUMBER);

  static final String INDEX_OUTPUT = """
      {"type": "object",
       "required": ["repo", "indexDir", "filesSeen", "added", "changed", "deleted", "unchanged",
         "committed", "files", "chunks"],
       "properties": {
        "repo": {"type": "string"}, "indexDir": {"type": "string"},
        "filesSeen": {"type": "integer"}, "hashed": {"type": "integer"},
        "added": {"type": "integer"}, "changed": {"type": "integer"},
        "deleted": {"type": "integer"}, "unchanged": {"type": "integer"},
        "skipped": {"type": "integer"}, "skippedBy": {"type": "object"},
        "chunksWritten": {"type": "integer"}, "chunksEmbedded": {"type": "integer"},
        "chunksReused": {"type": "integer"}, "committed": {"type": "boolean"},
        "revision": %1$s, "files": {"type": "integer"}, "chunks": {"type": "integer"},
        "model": %1$s, "semanticCoverage": %2$s, "semantic": {"type": "string"},
        "semanticMessage": %1$s, "sizeOnDiskBytes": {"type": "integer"},
        "durationMs": {"type": "integer"}, "repaired": %1$s}}
      """.formatted(NULLABLE_STRING, NULLABLE_NUMBER);

  private McpSchemas() {}
}
