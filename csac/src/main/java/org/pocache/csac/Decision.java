package org.pocache.csac;

/** What CSAC's Query returns for a file (Algorithm 1, lines 4-12). */
public enum Decision {
  /** The file's parity is in the cache. */
  CACHED,
  /** The file's parity is not cached and should be (admitted, or the file touches a straggler). */
  SHOULD_CACHE,
  /** The file's parity is not cached and should not be. */
  SHOULD_NOT_CACHE
}
