package dev.prismindex.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The resident server's memory, and the one-shot search's wall time, on a real repository (issue
 * 39, item 4): a {@code prism-index serve} process started through the launcher (with the JVM
 * options and allocator settings every server gets), then searches answered by it
 * ({@code PRISM_INDEX_SERVE=require}) in each kind of mode, and its resident memory (VmRSS, and
 * of it the anonymous and the file-backed part, from {@code /proc/PID/status}) sampled after
 * each step has been followed by a quiet period; last, one-shot {@code search --mode literal}
 * processes without a server. Prints a table and the targets (idle RSS ≤ 150 MB after a ranked
 * search; one-shot literal ≤ 400 ms, median) as met or missed. Linux only (reads /proc). Not JMH:
 * the unit is a process.
 *
 * <pre>
 * mvn -B -ntp -pl cli,benchmarks -am package -DskipTests
 * scripts/prism-index index --repo CORPUS          # once, with embeddings for the hybrid step
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.ServerFootprint \
 *     --launcher scripts/prism-index --repo CORPUS [--quiet 10] [--model-idle 65] \
 *     [--one-shot-runs 10] [--query "how are queries invalidated"] [--literal useQuery]
 * </pre>
 */
public final class ServerFootprint {

  /** The idle RSS target of issue 39, in MiB. */
  static final long IDLE_TARGET_MIB = 150;

  /** The one-shot literal target of issue 39, in milliseconds (median). */
  static final long ONE_SHOT_TARGET_MS = 400;

  private ServerFootprint() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>(Map.of("--quiet", "10", "--model-idle", "65",
        "--one-shot-runs", "10", "--query", "how are queries invalidated", "--literal",
        "useQuery"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i], args[i + 1]);
    }
    if (!opt.containsKey("--launcher") || !opt.containsKey("--repo")) {
      System.err.println("usage: ServerFootprint --launcher scripts/prism-index --repo CORPUS"
          + " [--quiet S] [--model-idle S] [--one-shot-runs N] [--query Q] [--literal Q]");
      System.exit(2);
    }
    Path launcher = Path.of(opt.get("--launcher")).toAbsolutePath();
    Path repo = Path.of(opt.get("--repo")).toAbsolutePath();
    long quiet = Long.parseLong(opt.get("--quiet"));
    List<String[]> rows = new ArrayList<>();
    run(launcher, repo, Map.of("PRISM_INDEX_SERVE", "0"), "serve", "--stop");
    Process server = new ProcessBuilder(launcher.toString(), "--repo", repo.toString(), "serve",
        "--idle-timeout", "0").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    long pid = serverPid(repo);
    long afterHybrid = -1;
    try {
      TimeUnit.SECONDS.sleep(quiet);
      rows.add(row("started (index opened, lexical and literal warm-up)", "-", pid));
      for (String mode : List.of("lexical", "literal", "hybrid")) {
        String query = mode.equals("literal") ? opt.get("--literal") : opt.get("--query");
        long ms = run(launcher, repo, Map.of("PRISM_INDEX_SERVE", "require"), "search", query,
            "--mode", mode, "--json");
        TimeUnit.SECONDS.sleep(quiet);
        String[] r = row(mode + " search, then " + quiet + " s quiet", ms + " ms", pid);
        rows.add(r);
        if (mode.equals("hybrid")) {
          afterHybrid = Long.parseLong(r[2]);
        }
      }
      long modelIdle = Long.parseLong(opt.get("--model-idle"));
      TimeUnit.SECONDS.sleep(Math.max(0, modelIdle - quiet));
      rows.add(row("then " + modelIdle + " s after the hybrid search (model released)", "-",
          pid));
    } finally {
      run(launcher, repo, Map.of("PRISM_INDEX_SERVE", "0"), "serve", "--stop");
      server.waitFor(2, TimeUnit.MINUTES);
    }
    List<Long> oneShot = new ArrayList<>();
    run(launcher, repo, Map.of("PRISM_INDEX_SERVE", "0"), "search", opt.get("--literal"),
        "--mode", "literal"); // warm the page cache and the class-data archive
    for (int i = 0; i < Integer.parseInt(opt.get("--one-shot-runs")); i++) {
      oneShot.add(run(launcher, repo, Map.of("PRISM_INDEX_SERVE", "0"), "search",
          opt.get("--literal"), "--mode", "literal"));
    }
    oneShot.sort(null);
    long median = oneShot.get(oneShot.size() / 2);

    System.out.println("| Step | Search wall time | RSS MiB | anon MiB | file MiB |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    for (String[] r : rows) {
      System.out.println("| " + String.join(" | ", r) + " |");
    }
    long last = Long.parseLong(rows.get(rows.size() - 1)[2]);
    long lexical = Long.parseLong(rows.get(1)[2]);
    System.out.printf(Locale.ROOT, "%nidle RSS after a lexical search: %d MiB; after a hybrid"
        + " search: %d MiB, %d MiB once the model is released (target <= %d MiB: %s)%n", lexical,
        afterHybrid, last, IDLE_TARGET_MIB,
        Math.max(lexical, last) <= IDLE_TARGET_MIB ? "met" : "missed");
    System.out.printf(Locale.ROOT, "one-shot literal search, no server: median %d ms of %d runs"
        + " (min %d, max %d; target <= %d ms: %s)%n", median, oneShot.size(), oneShot.get(0),
        oneShot.get(oneShot.size() - 1), ONE_SHOT_TARGET_MS,
        median <= ONE_SHOT_TARGET_MS ? "met" : "missed");
  }

  /** Runs the launcher to its end; returns its wall time in ms (fails on a non-zero exit). */
  static long run(Path launcher, Path repo, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(launcher.toString(), "--repo", repo.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(env);
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException(cmd + " failed: exit " + p.exitValue());
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** The pid in the index's port file, once the server has written it. */
  static long serverPid(Path repo) throws IOException, InterruptedException {
    Path portFile = repo.resolve(".prism-index/serve/serve.port");
    for (int i = 0; i < 1200; i++) {
      if (Files.exists(portFile)) {
        String[] w = Files.readString(portFile, StandardCharsets.US_ASCII).strip().split(" ");
        return Long.parseLong(w[2]);
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new IllegalStateException("no server answered for " + repo);
  }

  /** A table row: what, how long, VmRSS, RssAnon, RssFile (MiB). */
  static String[] row(String what, String took, long pid) throws IOException {
    Map<String, Long> kb = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      for (String key : List.of("VmRSS", "RssAnon", "RssFile")) {
        if (line.startsWith(key + ":")) {
          kb.put(key, Long.parseLong(line.replaceAll("[^0-9]", "")));
        }
      }
    }
    return new String[] {what, took, Long.toString(kb.get("VmRSS") / 1024),
        Long.toString(kb.get("RssAnon") / 1024), Long.toString(kb.get("RssFile") / 1024)};
  }
}
