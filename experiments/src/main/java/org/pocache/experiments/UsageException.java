package org.pocache.experiments;

/** Bad command-line input: the launcher prints the message and usage and exits 2. */
public class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
