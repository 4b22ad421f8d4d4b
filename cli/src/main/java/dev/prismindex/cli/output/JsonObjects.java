package dev.prismindex.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.cli.output.Results.Changes;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.Server;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.output.Results.Tier;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.MatchSpan;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The JSON objects of the results, in their fixed field order (schema version {@value
 * JsonPrinter#SCHEMA_VERSION}, docs/cli.md), which the {@link JsonPrinter}'s lines and the MCP
 * tools' results share: a hit, its freshness, an index summary, a status.
 */
public final class JsonObjects {

  static final JsonFactory FACTORY = new JsonFactory();

  private JsonObjects() {}

  /**
   * The hit object of schema version 1 without {@code freshness} and {@code notSearched} (the MCP
   * tool's {@code hits}: its result object carries both once).
   */
  public static void hit(JsonGenerator g, Hit hit) throws IOException {
    g.writeStartObject();
    hitFields(g, hit);
    g.writeEndObject();
  }

  /**
   * The {@code freshness} object: {@code checked} (the probe ran), {@code changedFiles},
   * {@code refreshedFiles} (re-indexed before answering), {@code skippedBecauseLocked} (an
   * indexing run was writing the index, or it is read-only: the answer comes from its last commit
   * and does not reflect the changed files) and {@code indexReadOnly} (the latter).
   */
  public static void freshness(JsonGenerator g, Freshness f) throws IOException {
    g.writeObjectFieldStart("freshness");
    g.writeBooleanField("checked", f.checked());
    g.writeNumberField("changedFiles", f.changedFiles());
    g.writeNumberField("refreshedFiles", f.refreshedFiles());
    g.writeBooleanField("skippedBecauseLocked", f.skippedBecauseLocked());
    g.writeBooleanField("indexReadOnly", f.indexReadOnly());
    g.writeEndObject();
  }

  /**
   * The fields of an engine {@link Hit} in the order of schema version 1 (docs/cli.md): repo (a
   * search of several repositories: a workspace or the cluster), path, line, endLine, snippet,
   * score, mode, language, symbol, engines (lexical, semantic, literal: the engines that
   * contributed), with context lines {@code before}, {@code text} (the hit's line as in the file)
   * and {@code after}, and for the exact modes {@code column} (of the first match) and {@code
   * matches} (each match's {@code column}, {@code endColumn} and {@code text}).
   */
  static void hitFields(JsonGenerator g, Hit hit) throws IOException {
    if (hit.repo() != null) {
      g.writeStringField("repo", hit.repo());
    }
    g.writeStringField("path", hit.path());
    g.writeNumberField("line", hit.line());
    g.writeNumberField("endLine", hit.endLine());
    g.writeStringField("snippet", hit.snippet());
    g.writeNumberField("score", hit.score());
    g.writeStringField("mode", hit.mode().wireName());
    g.writeStringField("language", hit.language());
    string(g, "symbol", hit.symbol());
    g.writeObjectFieldStart("engines");
    engine(g, "lexical", hit.lexical());
    engine(g, "semantic", hit.semantic());
    engine(g, "literal", hit.literal());
    g.writeEndObject();
    Hit.Context c = hit.context();
    if (c != null) {
      strings(g, "before", c.before());
      g.writeStringField("text", c.text());
      strings(g, "after", c.after());
    }
    if (hit.mode().exact() || hit.mode() == dev.prismindex.repository.SearchMode.INDEXED_LITERAL) {
      g.writeNumberField("column", hit.column());
      g.writeArrayFieldStart("matches");
      for (MatchSpan m : hit.matches()) {
        g.writeStartObject();
        g.writeNumberField("column", m.column());
        g.writeNumberField("endColumn", m.endColumn());
        g.writeStringField("text", m.text());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
  }

  private static void strings(JsonGenerator g, String name, List<String> values)
      throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private static void engine(JsonGenerator g, String name, @Nullable EngineScore s)
      throws IOException {
    if (s != null) {
      g.writeObjectFieldStart(name);
      g.writeNumberField("rank", s.rank());
      g.writeNumberField("score", s.score());
      g.writeEndObject();
    }
  }

  /** An object of counts by name, in name order. */
  public static void counts(JsonGenerator g, String name, Map<String, Integer> counts)
      throws IOException {
    g.writeObjectFieldStart(name);
    for (Map.Entry<String, Integer> e : new TreeMap<>(counts).entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  /** The summary object of {@code index --json} (also the MCP {@code reindex} tool's result). */
  public static void index(JsonGenerator g, IndexSummary s) throws IOException {
    g.writeStartObject();
    g.writeStringField("repo", s.repo().toString());
    g.writeStringField("indexDir", s.indexDir().toString());
    g.writeNumberField("filesSeen", s.filesSeen());
    g.writeNumberField("hashed", s.hashed());
    g.writeNumberField("added", s.added());
    g.writeNumberField("changed", s.changed());
    g.writeNumberField("deleted", s.deleted());
    g.writeNumberField("unchanged", s.unchanged());
    g.writeNumberField("skipped", s.skippedTotal());
    counts(g, "skippedBy", s.skipped());
    g.writeNumberField("chunksWritten", s.chunksWritten());
    g.writeNumberField("chunksEmbedded", s.chunksEmbedded());
    g.writeNumberField("chunksReused", s.chunksReused());
    g.writeBooleanField("committed", s.committed());
    string(g, "revision", s.sourceRevision());
    g.writeNumberField("files", s.files());
    g.writeNumberField("chunks", s.chunks());
    string(g, "model", s.model());
    number(g, "semanticCoverage", s.semanticCoverage());
    g.writeStringField("semantic", s.semantic());
    string(g, "semanticMessage", s.semanticMessage());
    g.writeNumberField("sizeOnDiskBytes", s.sizeOnDiskBytes());
    g.writeNumberField("durationMs", s.durationMs());
    string(g, "repaired", s.repaired());
    g.writeEndObject();
  }

  /** {@code "tiers": [{model, kind, dimension, chunksCovered, chunks, state}, ...]}. */
  static void tiers(JsonGenerator g, List<Tier> tiers) throws IOException {
    g.writeArrayFieldStart("tiers");
    for (Tier t : tiers) {
      g.writeStartObject();
      g.writeStringField("model", t.model());
      string(g, "kind", t.kind());
      g.writeNumberField("dimension", t.dimension());
      g.writeNumberField("chunksCovered", t.chunksCovered());
      g.writeNumberField("chunks", t.chunks());
      g.writeStringField("state", t.state());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * The object of {@code status --json} (also the MCP {@code index_status} tool's result); for a
   * workspace, its summary fields and {@code repos}, each repository's object with its {@code
   * name} first.
   */
  public static void status(JsonGenerator g, StatusReport s) throws IOException {
    g.writeStartObject();
    if (s.name() != null) {
      g.writeStringField("name", s.name());
    }
    g.writeStringField("state", s.state().wireName());
    g.writeBooleanField("searchable", s.state().searchable());
    string(g, "problem", s.problem());
    g.writeStringField("repo", s.repo().toString());
    g.writeStringField("indexDir", s.indexDir().toString());
    g.writeNumberField("files", s.files());
    g.writeNumberField("chunks", s.chunks());
    number(g, "semanticCoverage", s.semanticCoverage());
    g.writeNumberField("chunksEmbedded", s.chunksEmbedded());
    string(g, "semantic", s.semantic());
    string(g, "semanticMessage", s.semanticMessage());
    string(g, "model", s.model());
    string(g, "availableModel", s.availableModel());
    tiers(g, s.tiers());
    string(g, "revision", s.sourceRevision());
    Instant at = s.updatedAt();
    string(g, "updatedAt", at == null ? null : at.toString());
    g.writeNumberField("sizeOnDiskBytes", s.sizeOnDiskBytes());
    Changes c = s.changes();
    if (c == null) {
      g.writeNullField("changes");
    } else {
      g.writeObjectFieldStart("changes");
      g.writeNumberField("added", c.added());
      g.writeNumberField("modified", c.modified());
      g.writeNumberField("deleted", c.deleted());
      g.writeNumberField("total", c.total());
      g.writeNumberField("probeMs", c.probeMs());
      g.writeEndObject();
    }
    g.writeNumberField("skipped", c == null ? 0 : c.skippedTotal());
    counts(g, "skippedBy", c == null ? Map.of() : c.skipped());
    g.writeNumberField("maxRefreshFiles", s.maxRefreshFiles());
    string(g, "formatVersion", s.formatVersion());
    string(g, "analyzerVersion", s.analyzerVersion());
    Server server = s.server();
    if (server == null) {
      g.writeNullField("server");
    } else {
      g.writeObjectFieldStart("server");
      g.writeStringField("kind", server.kind());
      g.writeNumberField("pid", server.pid());
      g.writeStringField("startedAt", server.startedAt().toString());
      Duration idle = server.idleTimeout();
      if (idle == null) {
        g.writeNullField("idleTimeoutSeconds");
      } else {
        g.writeNumberField("idleTimeoutSeconds", idle.toSeconds());
      }
      g.writeStringField("watch", server.watch());
      g.writeEndObject();
    }
    if (!s.repos().isEmpty()) {
      g.writeArrayFieldStart("repos");
      for (StatusReport r : s.repos()) {
        status(g, r);
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  private static void string(JsonGenerator g, String name, @Nullable String value)
      throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeStringField(name, value);
    }
  }

  private static void number(JsonGenerator g, String name, @Nullable Double value)
      throws IOException {
    if (value == null) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, value);
    }
  }

  @FunctionalInterface
  public interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** One object as a string of one line, in the fixed field order. */
  public static String json(Body body) {
    StringWriter w = new StringWriter(256);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }
}
