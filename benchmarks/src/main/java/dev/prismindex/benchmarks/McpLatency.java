package dev.prismindex.benchmarks;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Warm {@code repo_search} latency through MCP, next to the one-shot CLI, measured in the same run:
 * the MCP Java SDK's client launches {@code prism-index mcp} (through the launcher, as an agent host
 * does), and each sample is one {@code callTool} round trip (request written, JSON-RPC response
 * read and parsed) after warm-up calls; the one-shot samples are the wall time of a
 * {@code prism-index search --json} process. Not JMH: the unit is a protocol round trip across two
 * processes. Every answer is checked (no tool error, at least one hit for the search queries).
 *
 * <pre>
 * mvn -B -ntp -pl cli,benchmarks -am package -DskipTests
 * scripts/prism-index index --repo CORPUS          # once, with embeddings
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.McpLatency \
 *     --launcher scripts/prism-index --repo CORPUS [--warmup 50] [--runs 200] [--cli-runs 10] \
 *     [--modes lexical,semantic,hybrid,literal] [--server-log FILE]
 * </pre>
 *
 * <p>{@code --server-log} runs the server with {@code --debug} and writes its stderr (per call: the
 * time to open the index, of the freshness probe and of the search) to FILE.
 */
public final class McpLatency {

  /** Identifiers: literal and lexical queries (gson's vocabulary; any Java corpus has some). */
  static final List<String> IDENTIFIERS = List.of("serializeNulls", "TypeAdapterFactory",
      "JsonReader", "setDateFormat", "getDelegateAdapter", "toJson", "fromJson", "JsonParser");

  /** Questions: semantic and hybrid queries. */
  static final List<String> QUESTIONS = List.of("how are null values written",
      "register a custom type adapter", "parse a json string into a tree",
      "format dates with a pattern", "skip fields when serializing", "read a stream of tokens",
      "pretty print the output", "handle a malformed document");

  private McpLatency() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>(Map.of("--warmup", "50", "--runs", "200",
        "--cli-runs", "10", "--modes", "lexical,semantic,hybrid,literal"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i], args[i + 1]);
    }
    if (!opt.containsKey("--launcher") || !opt.containsKey("--repo")) {
      System.err.println("usage: McpLatency --launcher scripts/prism-index --repo DIR"
          + " [--warmup N] [--runs N] [--cli-runs N] [--modes lexical,semantic,hybrid,literal]");
      System.exit(2);
    }
    String launcher = Path.of(opt.get("--launcher")).toAbsolutePath().toString();
    String repo = Path.of(opt.get("--repo")).toAbsolutePath().normalize().toString();
    int warmup = Integer.parseInt(opt.get("--warmup"));
    int runs = Integer.parseInt(opt.get("--runs"));
    int cliRuns = Integer.parseInt(opt.get("--cli-runs"));
    List<String> modes = List.of(opt.get("--modes").split(","));

    System.out.println("load average at start: " + loadavg());
    long t0 = System.nanoTime();
    List<String> serverArgs = new ArrayList<>(List.of("mcp", "--repo", repo));
    java.io.PrintStream serverLog = null;
    if (opt.containsKey("--server-log")) {
      // The server's stderr, with its debug timings (open, freshness probe, search) per call.
      serverArgs.add("--debug");
      serverLog = new java.io.PrintStream(opt.get("--server-log"), "UTF-8");
    }
    java.io.PrintStream log = serverLog;
    StdioClientTransport transport = new StdioClientTransport(
        ServerParameters.builder(launcher).args(serverArgs).build(), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {
      if (log != null) {
        log.println(line);
      }
    });
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofMinutes(5))
        .initializationTimeout(Duration.ofMinutes(2)).build();
    client.initialize();
    long startMs = (System.nanoTime() - t0) / 1_000_000;
    Map<String, Percentiles> first = new LinkedHashMap<>();
    Map<String, Percentiles> mcp = new LinkedHashMap<>();
    Map<String, Percentiles> cli = new LinkedHashMap<>();
    Map<String, Percentiles> engine = new LinkedHashMap<>();
    Percentiles ping;
    try {
      for (int i = 0; i < warmup; i++) {
        client.ping();
      }
      long[] pings = new long[runs];
      for (int i = 0; i < runs; i++) {
        long start = System.nanoTime();
        client.ping();
        pings[i] = System.nanoTime() - start;
      }
      ping = new Percentiles(pings);
      System.out.println("mcp ping: " + ping.summary());
      // Warm-up: the first call of each mode (the model loads on the first semantic one), then
      // `warmup` calls of every mode, so no mode is measured with a colder JIT than another.
      for (String mode : modes) {
        long[] once = {timedCall(client, queries(mode).get(0), mode)};
        first.put(mode, new Percentiles(once));
      }
      for (int i = 0; i < warmup; i++) {
        for (String mode : modes) {
          timedCall(client, queries(mode).get(i % queries(mode).size()), mode);
        }
      }
      // Measured: round robin over the modes, so a burst of load hits every mode alike.
      Map<String, long[]> samples = new LinkedHashMap<>();
      Map<String, long[]> took = new LinkedHashMap<>();
      for (String mode : modes) {
        samples.put(mode, new long[runs]);
        took.put(mode, new long[runs]);
      }
      for (int i = 0; i < runs; i++) {
        for (String mode : modes) {
          long[] sample = call(client, queries(mode).get(i % queries(mode).size()), mode);
          samples.get(mode)[i] = sample[0];
          took.get(mode)[i] = sample[1];
        }
      }
      for (String mode : modes) {
        mcp.put(mode, new Percentiles(samples.get(mode)));
        engine.put(mode, new Percentiles(took.get(mode)));
        System.out.println("mcp " + mode + ": " + mcp.get(mode).summary() + "; search itself"
            + " (tookMs): " + engine.get(mode).summary());
      }
    } finally {
      client.closeGracefully();
      if (serverLog != null) {
        serverLog.close();
      }
    }
    for (String mode : modes) {
      List<String> queries = queries(mode);
      long[] samples = new long[cliRuns];
      oneShot(launcher, repo, queries.get(0), mode);   // records the launcher's class archive
      for (int i = 0; i < cliRuns; i++) {
        samples[i] = oneShot(launcher, repo, queries.get(i % queries.size()), mode);
      }
      cli.put(mode, new Percentiles(samples));
      System.out.println("one-shot " + mode + ": " + cli.get(mode).summary());
    }
    System.out.println("load average at end: " + loadavg());
    System.out.printf(Locale.ROOT, "%nserver start to initialized: %d ms%n%n", startMs);
    System.out.printf(Locale.ROOT, "MCP ping round trip p50 / p95: %.2f / %.2f ms%n%n",
        ping.ms(50), ping.ms(95));
    System.out.println("| Mode | MCP first call, ms | MCP warm p50 / p95, ms | of which search"
        + " (tookMs) p50 | one-shot CLI p50 / p95, ms | one-shot / MCP (p50) |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (String mode : modes) {
      Percentiles m = mcp.get(mode);
      Percentiles c = cli.get(mode);
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.1f / %.1f | %.0f | %.0f / %.0f | %.0fx |%n",
          mode, first.get(mode).ms(50), m.ms(50), m.ms(95), engine.get(mode).ms(50), c.ms(50),
          c.ms(95), c.ms(50) / m.ms(50));
    }
  }

  private static List<String> queries(String mode) {
    return mode.equals("semantic") || mode.equals("hybrid") ? QUESTIONS : IDENTIFIERS;
  }

  private static long timedCall(McpSyncClient client, String query, String mode) {
    return call(client, query, mode)[0];
  }

  /**
   * One {@code repo_search} round trip, checked: the wall time in nanoseconds and the server's
   * {@code tookMs} (the search itself, after the freshness check) in nanoseconds.
   */
  private static long[] call(McpSyncClient client, String query, String mode) {
    long start = System.nanoTime();
    CallToolResult r = client.callTool(new CallToolRequest("repo_search",
        Map.of("query", query, "mode", mode, "limit", 10)));
    long took = System.nanoTime() - start;
    if (Boolean.TRUE.equals(r.isError())) {
      throw new IllegalStateException(mode + " '" + query + "': "
          + ((TextContent) r.content().get(0)).text());
    }
    Map<?, ?> structured = (Map<?, ?>) r.structuredContent();
    List<?> hits = (List<?>) structured.get("hits");
    if (hits.isEmpty()) {
      throw new IllegalStateException(mode + " '" + query + "': no hits; pick a corpus where the"
          + " queries match");
    }
    return new long[] {took, ((Number) structured.get("tookMs")).longValue() * 1_000_000};
  }

  /** The wall time of one {@code prism-index search --json} process (stdout discarded). */
  private static long oneShot(String launcher, String repo, String query, String mode)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(launcher, "search", query, "--json", "--mode", mode,
        "--limit", "10", "--repo", repo));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("one-shot search failed: " + cmd);
    }
    return System.nanoTime() - start;
  }

  private static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
