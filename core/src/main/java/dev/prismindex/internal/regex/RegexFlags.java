package dev.prismindex.internal.regex;

/** The flags in force while a pattern is parsed; a group works on a copy. */
final class RegexFlags {
  boolean caseInsensitive;
  boolean swapGreed;
  boolean verbose;

  RegexFlags copy() {
    RegexFlags f = new RegexFlags();
    f.caseInsensitive = caseInsensitive;
    f.swapGreed = swapGreed;
    f.verbose = verbose;
    return f;
  }
}
