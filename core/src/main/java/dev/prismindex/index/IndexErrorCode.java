package dev.prismindex.index;

/** The stable codes of {@link IndexException}. Names are wire values; they never change. */
public enum IndexErrorCode {
  /** The mode is not enabled on the composite, or the backend cannot answer it. */
  ERR_PRISM_INDEX_UNSUPPORTED,
  /** The index is empty, building, or does not attest a fresh timestamp or required revision. */
  ERR_PRISM_INDEX_STALE,
  /** The backend failed (or reported that it failed); its own text is never passed on. */
  ERR_PRISM_INDEX_FAILED,
  /** An update or remove exceeds a cap (files, bytes, identity or revision bounds). */
  ERR_PRISM_INDEX_LIMIT,
  /** The query ran past its deadline or was aborted. */
  ERR_PRISM_INDEX_TIMEOUT,
  /** The backend (or the caller's scope) produced a path, score, location or shape that is invalid. */
  ERR_PRISM_INDEX_UNTRUSTED
}
