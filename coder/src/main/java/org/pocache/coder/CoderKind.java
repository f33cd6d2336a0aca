package org.pocache.coder;

import java.util.Locale;

/** Which coder to use: {@code auto} prefers ISA-L and falls back to Java. */
public enum CoderKind {
  AUTO, ISAL, JAVA;

  /**
   * @throws IllegalArgumentException listing the accepted values
   */
  public static CoderKind parse(String value) {
    if (value != null) {
      switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "auto":
          return AUTO;
        case "isal":
          return ISAL;
        case "java":
          return JAVA;
        default:
          break;
      }
    }
    throw new IllegalArgumentException("coder must be one of auto, isal, java; got '" + value + "'");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
