package dev.prismindex.cli.output;

import static dev.prismindex.cli.output.JsonObjects.counts;
import static dev.prismindex.cli.output.JsonObjects.freshness;
import static dev.prismindex.cli.output.JsonObjects.hitFields;
import static dev.prismindex.cli.output.JsonObjects.json;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.engine.Hit;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
      err.println("prism-index search: note: " + Notes.lockedNote(f));
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
      err.println("note: " + Notes.notSearchedNote(notSearched));
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
          err.println("prism-index search: note: " + Notes.lockedNote(f));
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
          err.println("note: " + Notes.notSearchedNote(answer.notSearched(),
              !notIndexed.isEmpty()));
        }
      }
    };
  }

  @Override
  public void index(IndexSummary s) {
    if (s.repaired() != null) {
      err.println(Notes.repairedNote(s));
    }
    line(g -> JsonObjects.index(g, s));
  }

  @Override
  public void status(StatusReport s) {
    line(g -> JsonObjects.status(g, s));
  }

  /**
   * Writes one object as one line, then checks that stdout is still read. One generator writes
   * every line of this printer into one reused buffer (a generator per line was a third of the
   * cost of printing an exact search's many hits); a body that fails drops it.
   */
  private synchronized void line(JsonObjects.Body body) {
    lineText.setLength(0);
    try {
      JsonGenerator g = lines;
      if (g == null) {
        g = JsonObjects.FACTORY.createGenerator(new LineWriter(lineText));
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
