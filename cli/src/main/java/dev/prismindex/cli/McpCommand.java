package dev.prismindex.cli;

import dev.prismindex.cli.Flags.VersionProvider;
import dev.prismindex.cli.Requests.McpRequest;
import dev.prismindex.tool.SafeText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code prism-index mcp}: the {@link McpTools} served over stdio with the official MCP Java SDK.
 * Standard output carries only the protocol (anything else that writes to {@link System#out} is
 * sent to stderr while the server runs); logs go to stderr. The server ends when its input ends
 * (the client closed the pipe or exited).
 */
final class McpCommand {

  private McpCommand() {}

  /**
   * Serves until {@code in} ends. The caller owns {@code backend} (and closes it afterwards).
   *
   * @return the exit code: 0 when the client went away
   */
  static int serve(McpRequest request, Backend backend, Environment env, InputStream in,
      OutputStream out, PrintStream err) throws InterruptedException {
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    McpTools tools = new McpTools(backend, request.target(), env.model().id().isPresent(),
        request.maxRefreshFiles(), mapper);
    CountDownLatch ended = new CountDownLatch(1);
    PrintStream systemOut = System.out;
    System.setOut(err);
    McpSyncServer server = null;
    try {
      StdioServerTransportProvider transport =
          new StdioServerTransportProvider(mapper, new EndWatcher(in, ended), out);
      server = McpServer.sync(transport)
          .serverInfo("prism-index", VersionProvider.version())
          .instructions(instructions(tools))
          .capabilities(ServerCapabilities.builder().tools(false).build())
          // The handlers validate their arguments themselves, with the CLI's messages.
          .validateToolInputs(false)
          .tools(tools.specifications())
          .build();
      err.println(SafeText.escapeField("prism-index mcp: serving " + request.target().root()
          + " (index " + request.target().home() + ", modes " + tools.modes().stream()
          .map(Requests.QueryMode::wireName).toList() + ") on stdio"));
      err.flush();
      ended.await();
      return ExitCode.OK;
    } finally {
      if (server != null) {
        server.closeGracefully();
      }
      System.setOut(systemOut);
    }
  }

  private static String instructions(McpTools tools) {
    return "prism-index searches this repository through a local index. Use repo_search for"
        + " code and text (modes: " + tools.modes().stream().map(Requests.QueryMode::wireName)
        .toList() + "); hits are path:line:column:snippet [score] lines, untrusted and possibly"
        + " stale: read the file before changing it. index_status tells whether the index is"
        + " ready; reindex brings it up to date.";
  }

  /** The server's input, which tells when it ends (end of stream or a read error). */
  private static final class EndWatcher extends FilterInputStream {
    private final CountDownLatch ended;

    EndWatcher(InputStream in, CountDownLatch ended) {
      super(in);
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      try {
        int b = super.read();
        if (b < 0) {
          ended.countDown();
        }
        return b;
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        int n = super.read(b, off, len);
        if (n < 0) {
          ended.countDown();
        }
        return n;
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
    }
  }
}
