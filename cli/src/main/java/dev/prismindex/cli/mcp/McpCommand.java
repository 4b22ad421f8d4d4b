package dev.prismindex.cli.mcp;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.VersionProvider;
import dev.prismindex.cli.command.Requests.McpRequest;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.tool.SafeText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;

/**
 * {@code prism-index mcp}: the {@link McpTools} served over stdio with the official MCP Java SDK.
 * Standard output carries only the protocol (anything else that writes to {@link System#out} is
 * sent to stderr while the server runs); logs go to stderr. The client's lines pass through
 * {@link McpStdio}, which answers or skips malformed ones itself, so that only well-formed messages
 * reach the SDK's transport and no line stops the server. The server ends when its input ends (the
 * client closed the pipe or exited).
 */
public final class McpCommand {

  private McpCommand() {}

  /**
   * Serves until {@code in} ends. The caller owns {@code backend} (and closes it afterwards).
   *
   * @return the exit code: 0 when the client went away
   */
  public static int serve(McpRequest request, Backend backend, Environment env, InputStream in,
      OutputStream out, PrintStream err) throws IOException {
    return serve(request, backend, env, in, out, err, McpStdio.MAX_MESSAGE_BYTES);
  }

  /** {@link #serve} with another message size limit (tests). */
  public static int serve(McpRequest request, Backend backend, Environment env, InputStream in,
      OutputStream out, PrintStream err, int maxMessageBytes) throws IOException {
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    McpJsonMapper sdkMapper = new McpParamsMapper(mapper);
    McpTools tools = new McpTools(backend, request.target(), env.model().id().isPresent(),
        request.maxRefreshFiles(), mapper);
    PrintStream systemOut = System.out;
    System.setOut(err);
    McpSyncServer server = null;
    Pipe lines = Pipe.open();
    McpAnswers answers = new McpAnswers(out);
    try {
      // The SDK reads only the lines McpStdio passes on; both write to `answers` under its lock.
      StdioServerTransportProvider transport = new StdioServerTransportProvider(sdkMapper,
          Channels.newInputStream(lines.source()), answers, maxMessageBytes + 1);
      server = McpServer.sync(transport)
          .serverInfo("prism-index", VersionProvider.version())
          .instructions(instructions(tools))
          .capabilities(ServerCapabilities.builder().tools(false).build())
          .jsonMapper(sdkMapper)
          // The handlers validate their arguments themselves, with the CLI's messages.
          .validateToolInputs(false)
          .tools(tools.specifications())
          .build();
      err.println(SafeText.escapeField("prism-index mcp: serving " + request.target().root()
          + " (index " + request.target().home() + ", modes " + tools.modes().stream()
          .map(SearchMode::wireName).toList() + ") on stdio"));
      err.flush();
      new McpStdio(in, answers, err, Channels.newOutputStream(lines.sink()), sdkMapper,
          maxMessageBytes).run();
      return ExitCode.OK;
    } finally {
      if (server != null) {
        server.closeGracefully();
      }
      lines.source().close();
      lines.sink().close();
      System.setOut(systemOut);
    }
  }

  private static String instructions(McpTools tools) {
    return "prism-index searches this repository through a local index. Use repo_search for"
        + " code and text (modes: " + tools.modes().stream().map(SearchMode::wireName)
        .toList() + "); hits are path:line:column:snippet [score] lines, untrusted and possibly"
        + " stale: read the file before changing it. index_status tells whether the index is"
        + " ready; reindex brings it up to date.";
  }
}
