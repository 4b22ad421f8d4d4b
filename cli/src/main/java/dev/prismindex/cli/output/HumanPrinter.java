package dev.prismindex.cli.output;

import static dev.prismindex.cli.output.Notes.count;
import static dev.prismindex.cli.output.Notes.lockedNote;
import static dev.prismindex.cli.output.Notes.notSearchedNote;
import static dev.prismindex.cli.output.Notes.repairedNote;
import static dev.prismindex.cli.output.Style.Role.BOLD;
import static dev.prismindex.cli.output.Style.Role.DIM;
import static dev.prismindex.cli.output.Style.Role.LINE;
import static dev.prismindex.cli.output.Style.Role.PATH;
import static dev.prismindex.cli.output.Style.Role.SCORE;
import static dev.prismindex.cli.output.Style.Role.WARN;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.engine.Hit;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Text for people. A search prints a header naming the mode, then one block per hit in rank order:
 * {@code path:line}, the enclosing symbol and the score on the first line, the snippet indented on
 * the second; with context lines ({@code -C}, {@code -A}, {@code -B}), grep-style groups instead
 * ({@link #grep}). When the limit cut the answer, a last line says so. Notes (files re-indexed
 * first, partial semantic coverage) go to stderr.
 */
public final class HumanPrinter implements Printer {

  private final PrintStream out;
  private final PrintStream err;
  private final Style style;
  private final Layout layout;

  public HumanPrinter(PrintStream out, PrintStream err, Style style) {
    this(out, err, style, Layout.BLOCKS);
  }

  /**
   * @param layout how a search's hits are shown: blocks under a header (default), or grep's lines
   *     ({@code -n}), paths ({@code -l}) or counts ({@code -c}), which put nothing but those lines
   *     on stdout (notes and the truncation line go to stderr)
   */
  public HumanPrinter(PrintStream out, PrintStream err, Style style, Layout layout) {
    this.out = out;
    this.err = err;
    this.style = style;
    this.layout = layout;
  }

  @Override
  public void search(SearchAnswer r) {
    notes(r);
    if (layout.plain()) {
      switch (layout) {
        case FILES -> files(r, false);
        case COUNT -> files(r, true);
        default -> grep(r);
      }
      if (r.truncated()) {
        note((layout == Layout.LINES ? r.hits().size() + " of at least " + (r.hits().size() + 1)
            + " hits shown" : "from the first " + r.hits().size() + " hits only; more exist")
            + "; --limit to see more");
      }
      return;
    }
    int n = r.hits().size();
    String how = switch (r.mode()) {
      case "hybrid" -> "hybrid search (lexical + semantic)";
      case "lexical" -> r.modeReason() != null ? "lexical search (" + r.modeReason() + ")"
          : "lexical search";
      default -> r.mode() + " search";
    };
    emit(line().text(DIM, how + ": " + n + (n == 1 ? " hit" : " hits") + " for \""
        + r.query() + "\" in " + r.tookMs() + " ms"));
    if (r.hits().stream().anyMatch(h -> h.context() != null)) {
      grep(r);
    } else {
      blocks(r);
    }
    if (n == 0) {
      emit(line().text("no hits"));
    }
    if (r.truncated()) {
      emit(line());
      emit(line().text(DIM, n + " of at least " + (n + 1) + " hits shown; --limit to"
          + " see more"));
    }
  }

  @Override
  public ExactPrinter exact(String query) {
    return new Exact();
  }

  /**
   * An exact search, grep's way, as the hits come: {@code path:line:column:text} for each matching
   * line (its matches marked on a terminal; {@code path:line:text} with {@code -n}, as grep's);
   * with context lines, {@code path-line-text} for the lines around, the lines of one file that
   * overlap or touch printed once as one group, {@code --} between groups. With {@code -l} each
   * file's path once, with {@code -c} {@code path:count} once a file is done. Nothing else goes to
   * stdout, so the output can be piped like grep's; notes (files re-indexed first, files not
   * searched, the limit) go to stderr. In a workspace each path is its repository's name, then
   * {@code /}, then the path in that repository ({@code payments-api/src/Main.java}).
   */
  private final class Exact implements ExactPrinter {
    private @Nullable String path;
    /** The hits of the current file ({@code -c}). */
    private int inFile;
    /** The last line of the current file printed (0: none). */
    private int printed;
    /** After-context lines of the last hit, held until the next hit shows whether it is a hit. */
    private final TreeMap<Integer, String> pending = new TreeMap<>();
    private int hits;
    private Map<String, Integer> noted = Map.of();
    /** The uncoloured hit lines without context, made as bytes (null with colour). */
    private final @Nullable PlainHitLines plain = style.on() ? null
        : new PlainHitLines(layout != Layout.LINES);

    @Override
    public void begin(String mode, Freshness freshness, Map<String, Freshness> repos,
        Map<String, Integer> notIndexed) {
      if (repos.isEmpty()) {
        freshnessNote(freshness, "");
      }
      for (Map.Entry<String, Freshness> e : new TreeMap<>(repos).entrySet()) {
        freshnessNote(e.getValue(), "repository " + e.getKey() + ": ");
      }
      if (!notIndexed.isEmpty()) {
        note(notSearchedNote(notIndexed));
        noted = notIndexed;
      }
    }

    @Override
    public void hit(Hit h) {
      hits++;
      if (layout == Layout.FILES || layout == Layout.COUNT) {
        if (!shown(h).equals(path)) {
          count();
          path = shown(h);
          if (layout == Layout.FILES) {
            emit(line().text(PATH, path));
          }
        }
        inFile++;
        return;
      }
      Hit.Context c = h.context();
      if (c == null && plain != null) {
        plain.line(h, h.snippet());
        write(plain.bytes(), plain.size());
        return;
      }
      if (c == null) {
        emit(matchLine(h, h.snippet()));
        return;
      }
      int first = h.line() - c.before().size();
      boolean sameFile = shown(h).equals(path);
      // Held after-context lines before this hit are context; from it on, its own lines.
      flushPending(sameFile ? h.line() : Integer.MAX_VALUE);
      if (path != null && (!sameFile || first > printed + 1)) {
        emit(line().text(DIM, "--"));
      }
      if (!sameFile) {
        path = shown(h);
        printed = 0;
      }
      for (int i = 0; i < c.before().size(); i++) {
        int n = first + i;
        if (n > printed) {
          emit(contextLine(shown(h), n, c.before().get(i)));
          printed = n;
        }
      }
      emit(matchLine(h, c.text()));
      printed = h.line();
      for (int i = 0; i < c.after().size(); i++) {
        pending.put(h.line() + 1 + i, c.after().get(i));
      }
    }

    /** Prints the held after-context lines before line {@code before}, drops the rest. */
    private void flushPending(int before) {
      for (Map.Entry<Integer, String> e : pending.entrySet()) {
        if (e.getKey() < before && e.getKey() > printed) {
          emit(contextLine(path, e.getKey(), e.getValue()));
          printed = e.getKey();
        }
      }
      pending.clear();
    }

    private Line contextLine(String file, int n, String text) {
      return line().text(PATH, file).text("-").text(LINE, Integer.toString(n))
          .text("-").text(text.replace('\t', ' '));
    }

    private Line matchLine(Hit h, String text) {
      Line line = line().text(PATH, shown(h)).text(":")
          .text(LINE, Integer.toString(h.line())).text(":");
      if (layout != Layout.LINES) {
        line.text(Integer.toString(h.column())).text(":");
      }
      return Marks.matches(style, line, text, h);
    }

    /** {@code -c}: the count of the file just done, if any. */
    private void count() {
      if (layout == Layout.COUNT && path != null && inFile > 0) {
        emit(line().text(PATH, path).text(":").text(Integer.toString(inFile)));
      }
      inFile = 0;
    }

    @Override
    public void end(SearchAnswer r) {
      count();
      flushPending(Integer.MAX_VALUE);
      for (String skipped : r.skipped()) {
        note(skipped);
      }
      for (String n : r.notes()) {
        note(n);
      }
      if (!r.notSearched().isEmpty() && !r.notSearched().equals(noted)) {
        // Files found unreadable while searching, or the counts of a search without an index.
        note(notSearchedNote(r.notSearched(), !noted.isEmpty()));
      }
      if (r.truncated()) {
        note((layout == Layout.FILES || layout == Layout.COUNT ? "from the first " + hits
            + " hits only; more exist" : hits + " of at least " + (hits + 1) + " hits shown")
            + "; --limit to see more");
      }
    }
  }

  /**
   * The paths of the files with hits, in the order of their best hit (grep's {@code -l}); with
   * {@code counts}, each followed by {@code :} and its number of hits ({@code -c}).
   */
  private void files(SearchAnswer r, boolean counts) {
    Map<String, Integer> byPath = new LinkedHashMap<>();
    for (Hit h : r.hits()) {
      byPath.merge(shown(h), 1, Integer::sum);
    }
    for (Map.Entry<String, Integer> e : byPath.entrySet()) {
      Line line = line().text(PATH, e.getKey());
      emit(counts ? line.text(":").text(Integer.toString(e.getValue())) : line);
    }
  }

  /**
   * The path a hit is printed with: its repository-relative path, after its repository's name
   * when the search spanned several ({@code payments-api/src/Main.java}).
   */
  static String shown(Hit h) {
    return h.repo() == null ? h.path() : h.repo() + "/" + h.path();
  }

  /** One block per hit: {@code path:line  symbol  score}, then the snippet indented. */
  private void blocks(SearchAnswer r) {
    for (Hit h : r.hits()) {
      Line first = line().text(PATH, shown(h)).text(":")
          .text(LINE, Integer.toString(h.line()));
      if (h.symbol() != null) {
        first.text("  ").text(BOLD, h.symbol());
      }
      first.text("  ").text(SCORE, String.format(Locale.ROOT, "%.3f", h.score()));
      emit(line());
      emit(first);
      emit(Marks.query(style, line().text("    "), h.snippet(), r.query(),
          h.mode().wireName()));
    }
  }

  /**
   * Hits with their context, grep-style: {@code path:line:text} for a hit's line,
   * {@code path-line-text} for a line around it, {@code --} between the groups of {@link
   * HitGroups} (the hits of one file whose lines overlap or touch, best group first).
   */
  private void grep(SearchAnswer r) {
    List<HitGroups.Group> groups = HitGroups.of(r.hits());
    if (!layout.plain()) {
      emit(line());
    }
    boolean separate = r.hits().stream().anyMatch(h -> h.context() != null);
    boolean first = true;
    for (HitGroups.Group g : groups) {
      if (!first && separate) {
        emit(line().text(DIM, "--"));
      }
      first = false;
      for (Map.Entry<Integer, HitGroups.GroupLine> e : g.lines.entrySet()) {
        HitGroups.GroupLine gl = e.getValue();
        Hit hit = gl.hit();
        Line line = line().text(PATH, g.path)
            .text(hit == null ? "-" : ":").text(LINE, Integer.toString(e.getKey()))
            .text(hit == null ? "-" : ":");
        if (hit == null) {
          emit(line.text(gl.text().replace('\t', ' ')));
        } else {
          emit(Marks.query(style, line, gl.text(), r.query(), hit.mode().wireName()));
        }
      }
    }
  }

  private void notes(SearchAnswer r) {
    for (String skipped : r.skipped()) {
      note(skipped);
    }
    if (r.repos().isEmpty()) {
      freshnessNote(r.freshness(), "");
    }
    for (Map.Entry<String, Freshness> e : new TreeMap<>(r.repos()).entrySet()) {
      freshnessNote(e.getValue(), "repository " + e.getKey() + ": ");
    }
    for (String n : r.notes()) {
      note(n);
    }
    if (!r.notSearched().isEmpty()) {
      note(notSearchedNote(r.notSearched()));
    }
    Double coverage = r.semanticCoverage();
    if (coverage != null && coverage < 1.0) {
      note(String.format(Locale.ROOT, "semantic coverage is partial (%.0f%% of chunks embedded);"
          + " run `prism-index index` to complete it", Math.floor(coverage * 100)));
    }
  }

  /**
   * The note of what was done about changed files before searching, if anything, after {@code
   * prefix} (a workspace's repository).
   */
  private void freshnessNote(Freshness f, String prefix) {
    if (f.skippedBecauseLocked()) {
      note(prefix + lockedNote(f));
    } else if (f.refreshedFiles() > 0 || f.changedFiles() > 0) {
      note(prefix + "re-indexed " + f.changedFiles() + " changed "
          + (f.changedFiles() == 1 ? "file" : "files") + " before searching");
    }
  }

  @Override
  public void index(IndexSummary s) {
    if (s.repaired() != null) {
      err.println(repairedNote(s));
    }
    Summaries.index(style, s).forEach(this::emit);
  }

  @Override
  public void status(StatusReport s) {
    Summaries.status(style, s).forEach(this::emit);
  }

  /** Prints a plain line of text; see {@link Line}. */
  private void emit(String text) {
    emit(line().text(text));
  }

  /**
   * A line to stdout, every piece of it through {@link Line} (the one other way is {@link
   * PlainHitLines}, which makes the same bytes for an exact search's uncoloured hit lines).
   */
  private void emit(Line line) {
    // One write of the line's UTF-8 bytes (stdout is UTF-8 whatever the locale: Main, serve), not
    // two prints through the stream's encoder.
    byte[] bytes = line.withNewline();
    write(bytes, bytes.length);
  }

  /** The one way to stdout: {@code n} bytes of a line (its line feed included), in one write. */
  private void write(byte[] bytes, int n) {
    out.write(bytes, 0, n);
    if (out.checkError()) {
      throw new OutputClosedException();
    }
  }

  /** A new line in this printer's style. */
  private Line line() {
    return new Line(style);
  }

  private void note(String text) {
    err.println(line().text(WARN, "note: ").text(text));
  }
}
