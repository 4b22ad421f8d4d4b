package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

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
