package dev.prismindex.cli.doctor;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Requests.DoctorRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.output.Results.State;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.serve.ServerRegistry;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.NativeSupport;
import dev.prismindex.tool.SafeText;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code prism-index doctor}: checks what prism-index needs on this machine and for this
 * repository, one line each, with a concrete fix for every problem: the Java runtime, the file
 * name encoding, the native library (loaded, or why not), the embedding model (it is loaded and
 * asked to embed a query), the file-watch limits against the repository's directories, the
 * resident servers running, and the index's health. Exit code 1 when a check found something
 * broken (a problem), 0 otherwise (warnings say what works less well, and how to fix it).
 */
public final class Doctor {

  private Doctor() {}

  /** How a check came out. */
  public enum Status {
    /** As it should be. */
    OK,
    /** Works, less well than it could; the fix says how. */
    WARNING,
    /** Broken: something prism-index needs does not work; the fix says how to repair it. */
    PROBLEM;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One check's outcome.
   *
   * @param name what was checked ({@code java}, {@code locale}, {@code native}, {@code model},
   *     {@code watch}, {@code servers}, {@code index})
   * @param detail what was found
   * @param fix what to do about it; null when {@code status} is OK
   */
  public record Check(String name, Status status, String detail, @Nullable String fix) {}

  /** Runs every check and prints them; returns the exit code. */
  public static int run(DoctorRequest request, Environment env, Backend backend, PrintStream out)
      throws IOException {
    List<Check> checks = checks(request.target(), env, backend);
    long problems = checks.stream().filter(c -> c.status() == Status.PROBLEM).count();
    long warnings = checks.stream().filter(c -> c.status() == Status.WARNING).count();
    if (request.json()) {
      out.println(json(checks, problems, warnings));
    } else {
      for (Check c : checks) {
        out.println(SafeText.escapeField(String.format(Locale.ROOT, "%-8s %-8s %s",
            c.status() == Status.PROBLEM ? "PROBLEM" : c.status().label(), c.name(),
            c.detail())));
        if (c.fix() != null) {
          out.println(SafeText.escapeField("                  fix: " + c.fix()));
        }
      }
      out.println(problems == 0 && warnings == 0 ? "everything is in order"
          : plural(problems, "problem") + ", " + plural(warnings, "warning"));
    }
    out.flush();
    return problems == 0 ? ExitCode.OK : ExitCode.FAILURE;
  }

  /** The checks, in the order they are printed. */
  static List<Check> checks(Target target, Environment env, Backend backend) {
    List<Check> checks = new ArrayList<>();
    checks.add(java());
    checks.add(locale());
    checks.add(nativeLibrary());
    checks.add(model(env));
    checks.add(watch(target));
    checks.add(servers(target, env));
    checks.add(index(target, backend));
    return checks;
  }

  static Check java() {
    Runtime.Version v = Runtime.version();
    String detail = v + " (" + System.getProperty("java.vendor", "?") + ", "
        + System.getProperty("java.home", "?") + ")";
    return v.feature() >= 17 ? new Check("java", Status.OK, detail, null)
        : new Check("java", Status.PROBLEM, detail + ": prism-index needs Java 17 or later",
            "install Java 17+ (JAVA_HOME), or use the linux-x64 archive, which bundles a runtime");
  }

  /** File names are encoded in the JVM's {@code sun.jnu.encoding}, fixed at its start. */
  static Check locale() {
    String names = System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name());
    if (names.equalsIgnoreCase("UTF-8") || names.equalsIgnoreCase("UTF8")) {
      return new Check("locale", Status.OK, "file names are UTF-8", null);
    }
    return new Check("locale", Status.WARNING, "file names are read as " + names + ": a file whose"
        + " name is not " + names + " (src/Über.java in ASCII) cannot be indexed or searched",
        "run prism-index through its launcher (it sets C.UTF-8 when no locale is set), or set"
            + " LC_ALL=C.UTF-8");
  }

  static Check nativeLibrary() {
    NativeSupport n = NativeSupport.current();
    if (n.loaded()) {
      return new Check("native", Status.OK, NativeSupport.LIBRARY + " loaded (tree-sitter,"
          + " BLAKE3, n-grams)", null);
    }
    String detail = NativeSupport.LIBRARY + " not loaded: " + n.detail() + "; the Java paths give"
        + " the same results, more slowly";
    if (n.detail().startsWith("built for linux-x86_64 only")) {
      return new Check("native", Status.OK, detail, null);
    }
    return new Check("native", Status.WARNING, detail, n.detail().startsWith("switched off")
        ? "drop -Dprism.native=false (PRISM_INDEX_JAVA_OPTS)"
        : n.detail().startsWith("not in this build")
            ? "use a release archive, or build with gcc and without -Dprism.native.skip=true"
            : "check that the temporary directory allows executable files (java.io.tmpdir, noexec"
                + " mounts): the library is loaded from a temporary copy");
  }

  /** Loads the model and embeds a query, as the first semantic or hybrid search would. */
  static Check model(Environment env) {
    if (!env.model().semantic()) {
      return new Check("model", Status.OK, "semantic search switched off here", null);
    }
    Embedder given = env.model().embedder();
    Optional<EmbedderProvider> provider = EmbedderProvider.findDefault();
    if (given == null && provider.isEmpty()) {
      return new Check("model", Status.WARNING, "no embedding model on the class path: lexical"
          + " and literal search only (the default mode falls back to lexical)",
          "use the release archives or scripts/prism-index, whose jar bundles the model");
    }
    Embedder e = given != null ? given : provider.get().create();
    long start = System.nanoTime();
    try {
      float[] v = e.embedQuery("where is the stale index check");
      long ms = (System.nanoTime() - start) / 1_000_000;
      if (v.length != e.dimension()) {
        throw new IllegalStateException("a vector of " + v.length + " values, not "
            + e.dimension());
      }
      return new Check("model", Status.OK, e.id() + " loads and embeds a query (" + ms + " ms)",
          null);
    } catch (RuntimeException | LinkageError failure) {
      return new Check("model", Status.PROBLEM, e.id() + " fails: " + failure.getMessage(),
          "semantic and hybrid search need it: check the message (memory, a damaged jar:"
              + " reinstall), meanwhile search with --mode lexical");
    } finally {
      if (given == null) {
        e.release();
      }
    }
  }

  /**
   * Linux: the per-user inotify limits against the repository's directories (a watch takes one
   * per directory; too few and a resident server's watch gives up, so searches walk the tree).
   */
  static Check watch(Target target) {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return new Check("watch", Status.OK, os.startsWith("mac") ? "FSEvents (no per-directory"
          + " limit)" : "the JDK's watch service on " + os, null);
    }
    long watches = proc("/proc/sys/fs/inotify/max_user_watches");
    long instances = proc("/proc/sys/fs/inotify/max_user_instances");
    long dirs = directories(target);
    String detail = "inotify: " + (watches < 0 ? "?" : String.format(Locale.ROOT, "%,d",
        watches)) + " watches and " + (instances < 0 ? "?" : instances) + " instances per user,"
        + " for " + String.format(Locale.ROOT, "%,d", dirs) + " directories here";
    String fix = "raise the limit: sudo sysctl fs.inotify.max_user_watches=524288, and keep it in"
        + " /etc/sysctl.d/90-inotify.conf (fs.inotify.max_user_watches=524288)";
    if (watches >= 0 && watches < dirs) {
      return new Check("watch", Status.PROBLEM, detail + ": too few watches, so a resident"
          + " server cannot watch this repository and every search walks the tree", fix);
    }
    if (watches >= 0 && watches < 2 * dirs) {
      return new Check("watch", Status.WARNING, detail + ": other programs (editors, other"
          + " servers) share these watches", fix);
    }
    if (instances >= 0 && instances < 8) {
      return new Check("watch", Status.WARNING, detail + ": few instances (one per watching"
          + " process)", "sudo sysctl fs.inotify.max_user_instances=128");
    }
    return new Check("watch", Status.OK, detail, null);
  }

  static Check servers(Target target, Environment env) {
    List<ServerRegistry.Entry> running = ServerRegistry.running(env);
    StringBuilder detail = new StringBuilder(running.isEmpty() ? "none running"
        : plural(running.size(), "resident server") + " running");
    for (ServerRegistry.Entry e : running) {
      if (e.index().equals(target.home())) {
        detail.append(" (this repository's: pid ").append(e.pid())
            .append(e.rssBytes() < 0 ? "" : ", " + e.rssBytes() / (1024 * 1024) + " MB")
            .append(", up ").append(ServerRegistry.uptimeText(e.uptime())).append(')');
      }
    }
    if (!running.isEmpty()) {
      detail.append("; prism-index serve --list shows them");
    }
    return new Check("servers", Status.OK, detail.toString(), null);
  }

  static Check index(Target target, Backend backend) {
    StatusReport s;
    try {
      s = backend.status(new StatusRequest(target, true,
          SearchRequests.DEFAULT_MAX_REFRESH_FILES, false));
    } catch (IOException | RuntimeException e) {
      return new Check("index", Status.PROBLEM, "cannot be read: " + e.getMessage(),
          "prism-index index --full");
    }
    State state = s.state();
    String where = " at " + s.indexDir();
    return switch (state) {
      case MISSING -> new Check("index", Status.PROBLEM, "missing: no index" + where,
          "prism-index index");
      case OUTDATED -> new Check("index", Status.PROBLEM, "outdated: " + s.problem(),
          "prism-index index");
      case CORRUPT, INCOMPATIBLE -> new Check("index", Status.PROBLEM,
          state.name().toLowerCase(Locale.ROOT) + ": " + s.problem(), "prism-index index --full");
      case READY, BEHIND -> semantic(s, where);
    };
  }

  /** A searchable index: fine, or a warning about its embeddings. */
  private static Check semantic(StatusReport s, String where) {
    String detail = s.state().name().toLowerCase(Locale.ROOT) + where + ": " + s.files()
        + " files, " + s.chunks() + " chunks";
    if ("model_mismatch".equals(s.semantic())) {
      return new Check("index", Status.WARNING, detail + "; its embeddings come from another"
          + " model (" + s.model() + "), so semantic and hybrid search are off",
          "prism-index index --full");
    }
    Double coverage = s.semanticCoverage();
    if ("available".equals(s.semantic()) && coverage != null && coverage < 1.0) {
      return new Check("index", Status.WARNING, detail + String.format(Locale.ROOT, "; %.0f%%"
          + " of the chunks embedded", Math.floor(coverage * 100)), "prism-index index");
    }
    return new Check("index", Status.OK, detail + (coverage == null ? "" : String.format(
        Locale.ROOT, ", %.0f%% embedded", Math.floor(coverage * 100))), null);
  }

  /**
   * A number from a /proc file, or -1. (Line by line: {@code Files.readString} reads one byte of
   * a /proc file, whose size says 0.)
   */
  private static long proc(String file) {
    try {
      return Long.parseLong(Files.readAllLines(Path.of(file)).get(0).strip());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Directories a watch would register: all but {@code .git}, the index and symlinks. */
  static long directories(Target target) {
    long[] n = {0};
    Set<String> skipped = Set.of(".git");
    try {
      Files.walkFileTree(target.root(), new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
          if (skipped.contains(String.valueOf(dir.getFileName())) || dir.equals(target.home())) {
            return FileVisitResult.SKIP_SUBTREE;
          }
          n[0]++;
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // counted what could be read
    }
    return Files.isDirectory(target.root(), LinkOption.NOFOLLOW_LINKS) ? n[0] : 0;
  }

  private static String json(List<Check> checks, long problems, long warnings) {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
      g.writeStartObject();
      g.writeArrayFieldStart("checks");
      for (Check c : checks) {
        g.writeStartObject();
        g.writeStringField("name", c.name());
        g.writeStringField("status", c.status().label());
        g.writeStringField("detail", c.detail());
        if (c.fix() == null) {
          g.writeNullField("fix");
        } else {
          g.writeStringField("fix", c.fix());
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeNumberField("problems", problems);
      g.writeNumberField("warnings", warnings);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
