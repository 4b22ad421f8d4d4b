package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Target;
import dev.prismindex.tool.SafeText;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What makes a {@link ResidentServer} its index's one server: lock, port, port file. */
final class ServerClaim {

  private static final Logger LOG = LoggerFactory.getLogger(ResidentServer.class);

  static final String ALREADY_RUNNING = "a server is already running for ";

  final Path portFile;
  final ServerSocketChannel channel;
  /** The loopback port (kept: a closed channel no longer says). */
  final int port;
  final String token;
  private final FileChannel lockFile;
  private final FileLock lock;

  private ServerClaim(Path portFile, FileChannel lockFile, FileLock lock,
      ServerSocketChannel channel, int port, String token) {
    this.portFile = portFile;
    this.lockFile = lockFile;
    this.lock = lock;
    this.channel = channel;
    this.port = port;
    this.token = token;
  }

  /**
   * Takes the server lock of the target's index (waiting up to {@code lockWait} for a server that
   * is stopping), listens on a loopback port and writes the port file (see
   * {@link ResidentServer#start}).
   */
  static ServerClaim take(Target target, PrintStream log, Duration lockWait)
      throws CliFailure, IOException {
    if (target.workspaceFile() != null) {
      // A workspace's own directory beside its file, kept out of git like an index directory.
      Files.createDirectories(target.home());
      Path ignore = target.home().resolve(".gitignore");
      if (!Files.exists(ignore, LinkOption.NOFOLLOW_LINKS)) {
        Files.writeString(ignore, "*\n");
      }
    }
    Path dir = ServeProtocol.dir(target.home());
    Path portFile = dir.resolve(ServeProtocol.PORT_FILE);
    FileChannel lockFile;
    try {
      ServeFiles.privateDirectory(dir);
      lockFile = FileChannel.open(dir.resolve(ServeProtocol.LOCK), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw ServeFiles.unwritable(dir, e);
    }
    FileLock lock = null;
    long deadline = System.nanoTime() + lockWait.toNanos();
    try {
      while (true) {
        try {
          lock = lockFile.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null;
        }
        if (lock != null || System.nanoTime() >= deadline) {
          break;
        }
        Thread.sleep(100);
      }
    } catch (IOException | RuntimeException e) {
      lockFile.close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lockFile.close();
      throw new IOException("interrupted while waiting for the server lock", e);
    }
    if (lock == null) {
      lockFile.close();
      throw new CliFailure(ExitCode.FAILURE, ALREADY_RUNNING + target.root() + " (see "
          + portFile + ")");
    }
    ServerSocketChannel channel = null;
    try {
      if (Files.deleteIfExists(portFile)) {
        log.println(SafeText.escapeField("prism-index serve: removed the port file of a server"
            + " that did not stop (" + portFile + ")"));
      }
      channel = ServerSocketChannel.open();
      channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
      String token = ServeFiles.newToken();
      try {
        ServeFiles.writePortFile(portFile, port(channel) + " " + token + " "
            + ProcessHandle.current().pid() + "\n");
      } catch (IOException e) {
        throw ServeFiles.unwritable(dir, e);
      }
      return new ServerClaim(portFile, lockFile, lock, channel, port(channel), token);
    } catch (IOException | CliFailure | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      Files.deleteIfExists(portFile);
      lockFile.close();
      throw e;
    }
  }

  private static int port(ServerSocketChannel channel) throws IOException {
    return ((InetSocketAddress) channel.getLocalAddress()).getPort();
  }

  /** Stops listening and removes the port file: no client finds the server any more. */
  void closePort() {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing the socket failed", e);
    }
    try {
      Files.deleteIfExists(portFile);
    } catch (IOException e) {
      LOG.warn("could not remove the port file {}: {}", portFile, e.toString());
    }
  }

  /** Releases the server lock: another server may start for the index. */
  void release() {
    try {
      lock.release();
      lockFile.close();
    } catch (IOException e) {
      LOG.debug("releasing the server lock failed", e);
    }
  }

  /** Gives everything up after a failed start. */
  void abandon() throws IOException {
    channel.close();
    Files.deleteIfExists(portFile);
    lockFile.close();
  }
}
