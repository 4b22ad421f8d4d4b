package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import java.io.IOException;

/**
 * Runs validated requests. {@link LocalBackend} opens the index in this process for one request;
 * {@link dev.prismindex.cli.serve.WarmBackend} keeps it open across requests (resident server, MCP server) with the same
 * results, behind the same printers and exit codes.
 */
public interface Backend {

  /**
   * Checks freshness (catching up on a small change set), then searches.
   *
   * @throws CliFailure exit code 3 (index missing, corrupt, incompatible, stale beyond policy) or 4
   *     (no embedding model for semantic or hybrid)
   * @throws IOException when the index cannot be read
   */
  SearchAnswer search(SearchRequest request) throws CliFailure, IOException;

  /**
   * An exact search ({@link SearchRequest#exact()}) printed as it runs: {@code out.begin} once the
   * freshness is known, {@code out.hit} for each hit as it is found; the answer returned has no
   * hits (the caller ends the printer with it). The default searches, then hands the hits over.
   *
   * @throws CliFailure as {@link #search}
   * @throws IOException when the index or the files cannot be read
   */
  default SearchAnswer stream(SearchRequest request, ExactPrinter out)
      throws CliFailure, IOException {
    SearchAnswer answer = search(request);
    out.begin(answer.mode(), answer.freshness(), answer.repos(), answer.notSearched());
    answer.hits().forEach(out::hit);
    return answer;
  }

  /**
   * Builds or updates the index.
   *
   * @throws CliFailure exit code 3 for an index that needs {@code --full}, 1 when it is locked
   * @throws IOException when the walk or the write fails
   */
  IndexSummary index(IndexRequest request, Progress progress) throws CliFailure, IOException;

  /**
   * Describes the index; a missing, corrupt or incompatible index is a state, not an exception.
   *
   * @throws IOException when the index cannot be read
   */
  StatusReport status(StatusRequest request) throws IOException;
}
