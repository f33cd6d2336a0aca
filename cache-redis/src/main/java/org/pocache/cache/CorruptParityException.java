package org.pocache.cache;

/**
 * A value that is not what its key promises: malformed, truncated, of another
 * file or generation, or failing its checksum. Never returned as parity.
 */
public class CorruptParityException extends ParityStoreException {
  private static final long serialVersionUID = 1L;

  public CorruptParityException(ParityKey key, String what) {
    super(key + ": " + what);
  }
}
