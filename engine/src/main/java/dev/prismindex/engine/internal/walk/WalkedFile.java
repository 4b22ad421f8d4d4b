package dev.prismindex.engine.internal.walk;

/**
 * A regular file a walk yields, with the stat data the walk read while listing its directory (one
 * {@code lstat}, links not followed), so that checking it against the manifest needs no stat of
 * its own.
 *
 * @param path the repository-relative, {@code /}-separated path
 * @param size the size in bytes
 * @param mtimeNs the modification time in epoch nanoseconds
 */
public record WalkedFile(String path, long size, long mtimeNs) {}
