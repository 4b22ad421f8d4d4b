package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The resident server's files below the index home: its owner-only directory and the port file
 * holding the port, the token and the pid (see {@link ServeProtocol}).
 */
final class ServeFiles {

  private ServeFiles() {}

  static String newToken() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Writes the port file whole (a temporary file, mode 0600, renamed over it). */
  static void writePortFile(Path portFile, String content) throws IOException {
    Path tmp = portFile.resolveSibling(ServeProtocol.PORT_FILE + "." + ProcessHandle.current().pid()
        + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, content, StandardCharsets.US_ASCII);
    Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Why the server's files cannot be written in {@code dir}, for the user: the directory, the
   * system's reason ({@code Read-only file system}, {@code No space left on device}, ...) and what
   * to do, instead of the exception's text.
   */
  static CliFailure unwritable(Path dir, IOException e) {
    String reason = e instanceof AccessDeniedException ? "Permission denied"
        : e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
        : String.valueOf(e.getMessage());
    String lower = reason.toLowerCase(Locale.ROOT);
    String advice = lower.contains("read-only") || lower.contains("permission")
        ? "a server needs a writable index directory (--index-dir DIR); searches answer without one"
        : lower.contains("no space") || lower.contains("quota")
            ? "free some space and run it again; searches answer without a server"
            : "searches answer without a server";
    return new CliFailure(ExitCode.FAILURE, "cannot write the server's files in " + dir + " ("
        + reason + "): " + advice, e);
  }

  /**
   * Creates the directory with mode 0700 (and a {@code .gitignore} of {@code *}), or checks an
   * existing one and closes it to others.
   */
  static Path privateDirectory(Path dir) throws CliFailure, IOException {
    Files.createDirectories(dir.getParent());
    try {
      Files.createDirectory(dir,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) {
        throw new CliFailure(ExitCode.FAILURE, dir + " exists and is not a directory; remove it");
      }
      if (!ServeClient.ownedByThisUser(dir, a)) {
        throw new CliFailure(ExitCode.FAILURE, dir + " belongs to " + a.owner().getName()
            + ", not to this user; remove it");
      }
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    // Out of `git status` even before the first index run has written the home's own .gitignore.
    Path ignore = dir.resolve(".gitignore");
    if (!Files.exists(ignore, LinkOption.NOFOLLOW_LINKS)) {
      Files.writeString(ignore, "*\n", StandardCharsets.UTF_8);
    }
    return dir;
  }
}
