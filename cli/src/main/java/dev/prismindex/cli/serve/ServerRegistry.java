package dev.prismindex.cli.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Requests.ServersRequest;
import dev.prismindex.cli.command.Target;
import dev.prismindex.tool.SafeText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every resident server of this user, whatever its repository: a running server keeps one small
 * file in a per-user directory ({@code $XDG_RUNTIME_DIR/prism-index/servers}, else
 * {@code $XDG_CACHE_HOME/prism-index/servers}, else {@code ~/.cache/prism-index/servers}; mode
 * 0700), named by its pid and port and holding its repository, index and start time (never its
 * token, which stays in the index's port file). {@code serve --list} reads them and
 * {@code serve --stop-all} stops each server through its own port file. An entry whose process is
 * gone, or whose index's port file names another pid (the server was killed, its pid reused), is
 * stale and removed as it is read.
 */
public final class ServerRegistry {

  private static final Logger LOG = LoggerFactory.getLogger(ServerRegistry.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SUFFIX = ".json";

  private ServerRegistry() {}

  /**
   * One running server.
   *
   * @param pid its process id
   * @param repo the repository it serves
   * @param index its index directory
   * @param port its loopback port
   * @param started when it started
   * @param rssBytes its resident memory now, or -1 when this system does not say
   */
  public record Entry(long pid, Path repo, Path index, int port, Instant started, long rssBytes) {

    /** How long it has run. */
    public Duration uptime() {
      Duration d = Duration.between(started, Instant.now());
      return d.isNegative() ? Duration.ZERO : d;
    }
  }

  /** The registry's directory for {@code env}'s user, or null when none can be named. */
  static @Nullable Path dir(Environment env) {
    for (String[] candidate : new String[][] {{"XDG_RUNTIME_DIR", ""},
        {"XDG_CACHE_HOME", ""}, {"HOME", ".cache"}}) {
      String value = env.variable(candidate[0]);
      if (value != null && Path.of(value).isAbsolute()) {
        return Path.of(value).resolve(candidate[1]).resolve("prism-index").resolve("servers")
            .normalize();
      }
    }
    return null;
  }

  /** Records this process as the server of {@code target} (best effort: logged when it fails). */
  static void register(Environment env, Target target, int port, Instant started) {
    Path dir = dir(env);
    if (dir == null) {
      return;
    }
    long pid = ProcessHandle.current().pid();
    try {
      privateDirectory(dir);
      ObjectNode o = JSON.createObjectNode();
      o.put("pid", pid);
      o.put("repo", target.root().toString());
      o.put("index", target.home().toString());
      o.put("port", port);
      o.put("started", started.toString());
      Path tmp = dir.resolve(name(pid, port) + ".tmp");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
      Files.write(tmp, JSON.writeValueAsBytes(o));
      Files.move(tmp, dir.resolve(name(pid, port)), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not record this server in {}: {}", dir, e.toString());
    }
  }

  /** An entry's file name: the pid and the port (a test runs several servers in one process). */
  private static String name(long pid, int port) {
    return pid + "-" + port + SUFFIX;
  }

  /** Removes the entry of this process's server on {@code port} (best effort). */
  static void unregister(Environment env, int port) {
    Path dir = dir(env);
    if (dir != null) {
      try {
        Files.deleteIfExists(dir.resolve(name(ProcessHandle.current().pid(), port)));
      } catch (IOException e) {
        LOG.debug("could not remove this server's entry in {}: {}", dir, e.toString());
      }
    }
  }

  /**
   * The servers running now, oldest first. An entry whose process is gone (or is another process
   * now: it started after the server did, or long before) is removed on the way; one whose
   * process lives but whose index's port file is missing or names another pid (a server starting
   * or stopping) is left alone and not listed.
   */
  public static List<Entry> running(Environment env) {
    Path dir = dir(env);
    List<Entry> out = new ArrayList<>();
    if (dir == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path file : files) {
        Entry e = read(file);
        if (e == null) {
          Files.deleteIfExists(file);
        } else if (e.pid() == portFilePid(e.index())) {
          out.add(e);
        }
      }
    } catch (IOException e) {
      LOG.debug("could not read {}: {}", dir, e.toString());
    }
    out.sort(Comparator.comparing(Entry::started).thenComparingLong(Entry::pid));
    return out;
  }

  /** The entry of {@code file} when its process still runs, else null. */
  private static @Nullable Entry read(Path file) {
    try {
      JsonNode o = JSON.readTree(Files.readAllBytes(file));
      long pid = o.get("pid").asLong();
      Instant started = Instant.parse(o.get("started").asText());
      if (ProcessHandle.of(pid).filter(p -> sameProcess(p, started)).isPresent()) {
        return new Entry(pid, Path.of(o.get("repo").asText()), Path.of(o.get("index").asText()),
            o.get("port").asInt(), started, rss(pid));
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("unreadable server entry {}: {}", file, e.toString());
    }
    return null;
  }

  /**
   * Whether {@code p} is alive and is the process that started a server at {@code started}: it
   * began before that, and not more than {@link #MAX_START} before (a pid reused later, or a
   * process that holds an old pid, fails). True when the system does not say when it began.
   */
  private static boolean sameProcess(ProcessHandle p, Instant started) {
    if (!p.isAlive()) {
      return false;
    }
    return p.info().startInstant().map(begun -> !begun.isAfter(started.plusSeconds(1))
        && !begun.isBefore(started.minus(MAX_START))).orElse(true);
  }

  /** The longest a server's process may have run before the server started. */
  private static final Duration MAX_START = Duration.ofMinutes(10);

  /** The pid the index's port file names, or -1. */
  private static long portFilePid(Path index) {
    try {
      String[] words = Files.readString(ServeProtocol.portFile(index), StandardCharsets.US_ASCII)
          .strip().split(" ");
      return Long.parseLong(words[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** A process's resident memory in bytes: /proc on Linux, else {@code ps}; -1 when unknown. */
  static long rss(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: ask ps
    }
    try {
      Process p = new ProcessBuilder("ps", "-o", "rss=", "-p", Long.toString(pid))
          .redirectErrorStream(true).start();
      String kb = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
      return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 ? Long.parseLong(kb) * 1024
          : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * {@code serve --list} (a table on stdout, or NDJSON: one object per server) or
   * {@code serve --stop-all} (one line on stderr per server).
   *
   * @return the exit code
   */
  public static int run(ServersRequest request, Environment env, PrintStream out,
      PrintStream err) throws IOException {
    List<Entry> servers = running(env);
    if (request.stopAll()) {
      if (servers.isEmpty()) {
        err.println("prism-index serve: no resident server is running");
      }
      for (Entry e : servers) {
        err.println(SafeText.escapeField(ServeClient.stop(new Target(e.repo(), e.index()), env)));
      }
      err.flush();
      return ExitCode.OK;
    }
    if (request.json()) {
      for (Entry e : servers) {
        ObjectNode o = JSON.createObjectNode();
        o.put("pid", e.pid());
        o.put("repo", e.repo().toString());
        o.put("indexDir", e.index().toString());
        o.put("port", e.port());
        o.put("startedAt", e.started().toString());
        o.put("uptimeSeconds", e.uptime().toSeconds());
        if (e.rssBytes() >= 0) {
          o.put("rssBytes", e.rssBytes());
        } else {
          o.putNull("rssBytes");
        }
        out.println(JSON.writeValueAsString(o));
      }
      out.flush();
      return ExitCode.OK;
    }
    if (servers.isEmpty()) {
      err.println("prism-index serve: no resident server is running");
      err.flush();
      return ExitCode.OK;
    }
    String row = "%-8s %-6s %8s %8s  %s  %s";
    out.println(String.format(Locale.ROOT, row, "PID", "PORT", "RSS", "UPTIME", "REPOSITORY",
        "INDEX"));
    for (Entry e : servers) {
      out.println(SafeText.escapeField(String.format(Locale.ROOT, row, e.pid(), e.port(),
          e.rssBytes() < 0 ? "?" : e.rssBytes() / (1024 * 1024) + " MB", uptimeText(e.uptime()),
          e.repo(), e.index())));
    }
    out.flush();
    return ExitCode.OK;
  }

  /** {@code 45 s}, {@code 12 min}, {@code 3 h}, {@code 2 d}. */
  public static String uptimeText(Duration d) {
    long s = d.toSeconds();
    return s < 60 ? s + " s" : s < 3600 ? s / 60 + " min" : s < 172_800 ? s / 3600 + " h"
        : s / 86_400 + " d";
  }

  /** Creates {@code dir} with mode 0700, or checks that an existing one is this user's. */
  private static void privateDirectory(Path dir) throws IOException {
    Files.createDirectories(dir.getParent());
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    }
    PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    if (!ServeClient.ownedByThisUser(dir, a)) {
      throw new IOException(dir + " belongs to another user");
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }
}
