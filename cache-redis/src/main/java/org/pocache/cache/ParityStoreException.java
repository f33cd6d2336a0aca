package org.pocache.cache;

/**
 * Anything that keeps the parity tier from answering: a checked exception, so a
 * read path must decide to fall back to plain HDFS; nothing from this module
 * reaches it as an unchecked exception.
 */
public class ParityStoreException extends Exception {
  private static final long serialVersionUID = 1L;

  public ParityStoreException(String message) {
    super(message);
  }

  public ParityStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
