package dev.prismindex.repository;

/** The plain breadth-first file-system walk (skeleton). */
final class NativeWalk {
  static final NativeWalk INSTANCE = new NativeWalk();

  private NativeWalk() {}
}
