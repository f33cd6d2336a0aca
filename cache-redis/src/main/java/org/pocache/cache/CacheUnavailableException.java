package org.pocache.cache;

/** Redis did not answer in time, refused, or the circuit breaker is open. */
public class CacheUnavailableException extends ParityStoreException {
  private static final long serialVersionUID = 1L;

  public CacheUnavailableException(String message) {
    super(message);
  }

  public CacheUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
