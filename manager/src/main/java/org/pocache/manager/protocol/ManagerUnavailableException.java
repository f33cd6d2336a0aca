package org.pocache.manager.protocol;

import java.io.IOException;

/**
 * A call to the Manager was not made: the Manager did not answer a call shortly
 * before (see {@link ManagerClient}). Callers treat it as they treat a timeout.
 */
public final class ManagerUnavailableException extends IOException {
  private static final long serialVersionUID = 1L;

  public ManagerUnavailableException(String message) {
    super(message);
  }
}
