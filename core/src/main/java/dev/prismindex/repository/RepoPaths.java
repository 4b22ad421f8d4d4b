package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Set;

/** Small path and name rules shared by the walks and the operations. */
final class RepoPaths {

  private RepoPaths() {}

  /**
   * Whether {@code target} is {@code root} or below it. Both must be absolute and normalised. The
   * comparison is by whole name components, so a child named {@code ..foo} is inside.
   */
  static boolean isInside(Path root, Path target) {
    return target.startsWith(root);
  }

  /** The {@code /}-separated path of {@code target} relative to {@code root} ({@code "."} for it). */
  static String toRepoRelative(Path root, Path target) {
    Path relative = root.relativize(target);
    String text = relative.toString();
    if (text.isEmpty()) {
      return ".";
    }
    return relative.getFileSystem().getSeparator().equals("/")
        ? text : text.replace(relative.getFileSystem().getSeparator(), "/");
  }

  /** Joins a walked directory's relative path and a child name. */
  static String child(String parent, String name) {
    return parent.equals(".") ? name : parent + "/" + name;
  }

  /**
   * Whether a walk skips {@code name}: {@code .} and {@code ..}, any excluded base name, and names
   * starting with {@code .} unless hidden names are included.
   */
  static boolean shouldSkipName(String name, boolean includeHidden, Set<String> exclude) {
    if (name.equals(".") || name.equals("..")) {
      return true;
    }
    if (exclude.contains(name)) {
      return true;
    }
    return !includeHidden && name.startsWith(".");
  }

  /**
   * A short description of an I/O failure in the style of Node's error messages, e.g.
   * {@code ENOENT: no such file or directory, lstat '/x'}.
   */
  static String describe(IOException e, String syscall) {
    String file = e instanceof FileSystemException fse && fse.getFile() != null
        ? " '" + fse.getFile() + "'" : "";
    if (e instanceof NoSuchFileException) {
      return "ENOENT: no such file or directory, " + syscall + file;
    }
    if (e instanceof AccessDeniedException) {
      return "EACCES: permission denied, " + syscall + file;
    }
    if (e instanceof NotDirectoryException) {
      return "ENOTDIR: not a directory, " + syscall + file;
    }
    if (e instanceof FileSystemLoopException) {
      return "ELOOP: too many symbolic links encountered, " + syscall + file;
    }
    String message = e.getMessage();
    return message == null || message.isEmpty() ? e.getClass().getSimpleName() : message;
  }
}
