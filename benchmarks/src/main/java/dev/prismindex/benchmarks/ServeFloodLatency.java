package dev.prismindex.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Served search latency of {@code prism-index serve} while strangers flood its port (issue 41,
 * item 1), side by side with the same searches without the flood: the launcher's client answers
 * {@code search --json} from a running server ({@code PRISM_INDEX_SERVE=require}, so every sample
 * is served or the run fails), in rounds that alternate a quiet phase and a flooded one. The flood
 * is what the issue measured: 200 connections that send nothing and 8 that send one byte a
 * second, each reopened as soon as the server closes it. Reported: p50 / p95 per phase, the
 * longest any stranger's connection stayed open (the server's budget is 1 s), and the server's
 * resident memory and thread count (from {@code /proc}) during the flood. Target: flooded p95
 * within the quiet p95 + 100 ms, strangers closed within their budget, memory and threads bounded.
 * Not JMH: the unit is a client process and a server process.
 *
 * <pre>
 * mvn -B -ntp -pl cli,benchmarks -am package -DskipTests
 * scripts/prism-index index --repo CORPUS
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.ServeFloodLatency \
 *     --launcher scripts/prism-index --repo CORPUS [--rounds 10] [--per-round 20] \
 *     [--idle 200] [--slow 8] [--query serializeNulls]
 * </pre>
 */
public final class ServeFloodLatency {

  private ServeFloodLatency() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>(Map.of("--rounds", "10", "--per-round", "20",
        "--idle", "200", "--slow", "8", "--query", "serializeNulls"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i], args[i + 1]);
    }
    if (!opt.containsKey("--launcher") || !opt.containsKey("--repo")) {
      System.err.println("usage: ServeFloodLatency --launcher scripts/prism-index --repo DIR"
          + " [--rounds N] [--per-round N] [--idle N] [--slow N] [--query Q]");
      System.exit(2);
    }
    String launcher = Path.of(opt.get("--launcher")).toAbsolutePath().toString();
    Path repo = Path.of(opt.get("--repo")).toAbsolutePath().normalize();
    int rounds = Integer.parseInt(opt.get("--rounds"));
    int perRound = Integer.parseInt(opt.get("--per-round"));
    int idle = Integer.parseInt(opt.get("--idle"));
    int slow = Integer.parseInt(opt.get("--slow"));
    String query = opt.get("--query");

    System.out.println("load average at start: " + loadavg());
    Process server = new ProcessBuilder(launcher, "serve", "--repo", repo.toString(),
        "--idle-timeout", "30m").redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
    try {
      BufferedReader log = new BufferedReader(new InputStreamReader(server.getErrorStream(),
          StandardCharsets.UTF_8));
      String first = log.readLine();
      if (first == null || !first.startsWith("prism-index serve: answering")) {
        throw new IllegalStateException("the server did not start: " + first);
      }
      Thread drain = new Thread(() -> {
        try {
          while (log.readLine() != null) {
            // the server's log is not measured
          }
        } catch (IOException e) {
          // ended
        }
      });
      drain.setDaemon(true);
      drain.start();
      String[] portFile = Files.readString(repo.resolve(".prism-index/serve/serve.port"),
          StandardCharsets.US_ASCII).strip().split(" ");
      InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(),
          Integer.parseInt(portFile[0]));
      long pid = server.pid();
      for (int i = 0; i < 20; i++) {
        served(launcher, repo, query);
      }
      long[] quiet = new long[rounds * perRound];
      long[] flooded = new long[rounds * perRound];
      Flood flood = new Flood(at, idle, slow);
      long rssMax = 0;
      long threadsMax = 0;
      long rssQuiet = status(pid, "VmRSS");
      long threadsQuiet = status(pid, "Threads");
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < perRound; i++) {
          quiet[r * perRound + i] = served(launcher, repo, query);
        }
        flood.start();
        Thread.sleep(1_500); // every slot open, the first budgets spent
        for (int i = 0; i < perRound; i++) {
          flooded[r * perRound + i] = served(launcher, repo, query);
          rssMax = Math.max(rssMax, status(pid, "VmRSS"));
          threadsMax = Math.max(threadsMax, status(pid, "Threads"));
        }
        flood.stop();
        System.out.printf(Locale.ROOT, "round %d: server RSS %d MB, threads %d%n", r + 1,
            status(pid, "VmRSS") / 1024, status(pid, "Threads"));
      }
      Percentiles q = new Percentiles(quiet);
      Percentiles f = new Percentiles(flooded);
      System.out.println("load average at end: " + loadavg());
      System.out.println("quiet:   " + q.summary());
      System.out.println("flooded: " + f.summary());
      System.out.printf(Locale.ROOT, "p95 flooded - quiet: %+.1f ms (target <= +100 ms)%n",
          f.ms(95) - q.ms(95));
      System.out.printf(Locale.ROOT, "stranger connections: %d opened, %d closed by the server,"
          + " longest open %d ms (budget 1000 ms)%n", flood.opened.get(), flood.closed.get(),
          flood.longestMs.get());
      System.out.printf(Locale.ROOT, "server: RSS %d MB quiet, %d MB max flooded; threads %d"
          + " quiet, %d max flooded%n", rssQuiet / 1024, rssMax / 1024, threadsQuiet,
          threadsMax);
    } finally {
      server.destroy();
      server.waitFor(1, TimeUnit.MINUTES);
    }
  }

  /** The wall time of one served {@code search --json} through the launcher, checked. */
  private static long served(String launcher, Path repo, String query) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(launcher, "search", query, "--json", "--mode",
        "lexical", "--repo", repo.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("PRISM_INDEX_SERVE", "require");
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("a served search failed");
    }
    return System.nanoTime() - start;
  }

  /**
   * Strangers without the token: {@code idle} connections that send nothing and {@code slow}
   * that send one byte a second, each reopened when the server closes it, on a thread each.
   */
  private static final class Flood {
    final InetSocketAddress at;
    final int idle;
    final int slow;
    final AtomicLong opened = new AtomicLong();
    final AtomicLong closed = new AtomicLong();
    final AtomicLong longestMs = new AtomicLong();
    final ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
    volatile AtomicBoolean on = new AtomicBoolean();
    final List<Thread> threads = new ArrayList<>();

    Flood(InetSocketAddress at, int idle, int slow) {
      this.at = at;
      this.idle = idle;
      this.slow = slow;
    }

    void start() {
      AtomicBoolean running = new AtomicBoolean(true);
      on = running;
      threads.clear();
      for (int i = 0; i < idle + slow; i++) {
        boolean sends = i >= idle;
        Thread t = new Thread(() -> stranger(running, sends), "stranger-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    void stop() throws InterruptedException {
      on.set(false);
      for (Socket s : open) {
        try {
          s.close();
        } catch (IOException e) {
          // closed already
        }
      }
      for (Thread t : threads) {
        t.join(10_000);
      }
      open.clear();
    }

    /** One stranger's loop: connect, wait (or trickle) until the server closes, again. */
    private void stranger(AtomicBoolean running, boolean sends) {
      byte[] magic = "prism-index-serve/3".getBytes(StandardCharsets.US_ASCII);
      while (running.get()) {
        Socket s = new Socket();
        open.add(s);
        long t0 = 0;
        try {
          s.connect(at, 10_000);
          t0 = System.nanoTime();
          opened.incrementAndGet();
          s.setSoTimeout(sends ? 1_000 : 0);
          InputStream in = s.getInputStream();
          OutputStream out = s.getOutputStream();
          for (int b = 0; running.get(); b++) {
            if (sends) {
              out.write(magic[b % magic.length]);
            }
            try {
              if (in.read() < 0) {
                break;
              }
            } catch (SocketTimeoutException e) {
              // a second: the next byte
            }
          }
        } catch (IOException e) {
          // reset by the server, or closed by stop()
        } finally {
          if (running.get() && t0 != 0) {
            closed.incrementAndGet();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            longestMs.accumulateAndGet(ms, Math::max);
          }
          open.remove(s);
          try {
            s.close();
          } catch (IOException e) {
            // closed already
          }
        }
      }
    }
  }

  /** A field of {@code /proc/PID/status} (kB for memory), or 0. */
  private static long status(long pid, String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith(field + ":")) {
          return Long.parseLong(line.substring(field.length() + 1).strip().split("\\s+")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone
    }
    return 0;
  }

  private static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
