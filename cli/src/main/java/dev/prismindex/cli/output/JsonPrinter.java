package dev.prismindex.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.cli.output.Results.Changes;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.Server;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.output.Results.Tier;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.MatchSpan;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Robot mode: {@code search} prints NDJSON, exactly one object per hit and nothing else (schema
 * version {@value #SCHEMA_VERSION}, see docs/cli.md: fields are only ever added);
 * {@code index} and {@code status} print one object on one line. Fields keep a fixed order.
 */
public final class JsonPrinter implements Printer {

  /** The version of the hit schema documented in docs/cli.md. */
  public static final int SCHEMA_VERSION = 1;

  private static final JsonFactory FACTORY = new JsonFactory();

  private final PrintStream out;
  private final PrintStream err;
  /** The generator of {@link #line}, null until the first line and after a failed one. */
  private @Nullable JsonGenerator lines;
  private final StringBuilder lineText = new StringBuilder(512);

  public JsonPrinter(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * One object per hit: the hit's fields, then {@code freshness} (what was done about changed files
   * before answering; the same for every hit of the answer), then {@code v}, the schema version. When an indexing run held the index,
   * stderr says so too (also for an answer without hits).
   */
  @Override
  public void search(SearchAnswer result) {
    Freshness f = result.freshness();
    if (f.skippedBecauseLocked()) {
      err.println("prism-index search: note: " + HumanPrinter.lockedNote(f));
    }
    for (String skipped : result.skipped()) {
      err.println("prism-index search: note: " + skipped);
    }
    Map<String, Integer> notSearched = result.notSearched();
    for (Hit hit : result.hits()) {
      line(g -> {
        g.writeStartObject();
        hitFields(g, hit);
        freshness(g, result.freshness(hit));
        if (!notSearched.isEmpty()) {
          counts(g, "notSearched", notSearched);
        }
        g.writeNumberField("v", SCHEMA_VERSION);
        g.writeEndObject();
      });
    }
    for (String n : result.notes()) {
      err.println("note: " + n);
    }
    if (!notSearched.isEmpty()) {
      // Also when there is no hit: the one-line note of human mode, on stderr.
      err.println("note: " + HumanPrinter.notSearchedNote(notSearched));
    }
  }

  /**
   * An exact search, one object per hit as the hits come (the same objects as {@link #search}),
   * each with the {@code freshness} of the search (in a workspace, of the hit's repository) and,
   * as {@code notSearched}, the files the index leaves out (known before the search). The counts
   * of everything not searched, including files found unreadable during the search, and the
   * answer's notes go to stderr once, after the last hit.
   */
  @Override
  public ExactPrinter exact(String query) {
    return new ExactPrinter() {
      private Freshness freshness = Freshness.NOT_CHECKED;
      private Map<String, Freshness> repos = Map.of();
      private Map<String, Integer> notIndexed = Map.of();

      @Override
      public void begin(String mode, Freshness f, Map<String, Freshness> each,
          Map<String, Integer> skipped) {
        freshness = f;
        repos = each;
        notIndexed = skipped;
        if (f.skippedBecauseLocked()) {
          err.println("prism-index search: note: " + HumanPrinter.lockedNote(f));
        }
      }

      /** The fields every hit of one freshness ends with, written once (an answer's many). */
      private final Map<Freshness, String> tails = new java.util.IdentityHashMap<>();

      @Override
      public void hit(Hit hit) {
        Freshness f = hit.repo() == null ? freshness : repos.getOrDefault(hit.repo(), freshness);
        String tail;
        synchronized (tails) {
          tail = tails.computeIfAbsent(f, this::tail);
        }
        line(g -> {
          g.writeStartObject();
          hitFields(g, hit);
          g.writeRaw(tail);
          g.writeNumberField("v", SCHEMA_VERSION);
          g.writeEndObject();
        });
      }

      /** {@code ,"freshness":{...}} and {@code ,"notSearched":{...}} when files are left out. */
      private String tail(Freshness f) {
        String object = json(g -> {
          g.writeStartObject();
          freshness(g, f);
          if (!notIndexed.isEmpty()) {
            counts(g, "notSearched", notIndexed);
          }
          g.writeEndObject();
        });
        return "," + object.substring(1, object.length() - 1);
      }

      @Override
      public void end(SearchAnswer answer) {
        for (String skipped : answer.skipped()) {
          err.println("prism-index search: note: " + skipped);
        }
        for (String n : answer.notes()) {
          err.println("note: " + n);
        }
        if (!answer.notSearched().isEmpty()) {
          err.println("note: " + HumanPrinter.notSearchedNote(answer.notSearched(),
              !notIndexed.isEmpty()));
        }
      }
    };
  }

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
  private static void hitFields(JsonGenerator g, Hit hit) throws IOException {
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

  private static void strings(JsonGenerator g, String name, java.util.List<String> values)
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
    for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(counts).entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  @Override
  public void index(IndexSummary s) {
    if (s.repaired() != null) {
      err.println(HumanPrinter.repairedNote(s));
    }
    line(g -> index(g, s));
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

  @Override
  public void status(StatusReport s) {
    line(g -> status(g, s));
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

  /**
   * Writes one object as one line, then checks that stdout is still read. One generator writes
   * every line of this printer into one reused buffer (a generator per line was a third of the
   * cost of printing an exact search's many hits); a body that fails drops it.
   */
  private synchronized void line(Body body) {
    lineText.setLength(0);
    try {
      JsonGenerator g = lines;
      if (g == null) {
        g = FACTORY.createGenerator(new LineWriter(lineText));
        g.setRootValueSeparator(null);
      }
      lines = null;
      body.write(g);
      g.flush();
      lines = g;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lineText.append('\n');
    out.append(lineText);
    if (out.checkError()) {
      throw new OutputClosedException();
    }
  }

  /** A writer into a {@link StringBuilder} (unsynchronised, unlike {@link StringWriter}). */
  private static final class LineWriter extends java.io.Writer {
    private final StringBuilder text;

    LineWriter(StringBuilder text) {
      this.text = text;
    }

    @Override
    public void write(char[] chars, int off, int len) {
      text.append(chars, off, len);
    }

    @Override
    public void write(String str, int off, int len) {
      text.append(str, off, off + len);
    }

    @Override
    public void write(int c) {
      text.append((char) c);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  }
}
