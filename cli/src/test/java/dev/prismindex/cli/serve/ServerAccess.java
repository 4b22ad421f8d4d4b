package dev.prismindex.cli.serve;

import dev.prismindex.cli.Harness;
import dev.prismindex.cli.command.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** Starts a resident server in this JVM for tests of other packages. */
public final class ServerAccess {
  private ServerAccess() {}

  /** A server for {@code repo}'s default index in {@code cli}'s environment; close it after. */
  public static AutoCloseable start(Harness cli, Path repo) throws Exception {
    ResidentServer s = ResidentServer.start(new Target(repo, repo.resolve(".prism-index")),
        cli.environment(), Duration.ZERO, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), Harness.COMMANDS, Duration.ZERO);
    return s::close;
  }
}
