package org.pocache.coder;

/**
 * {@code pocache checknative [-a]}: whether ISA-L is loaded, from where, and why
 * not if not, like {@code hadoop checknative}. With -a the exit code is 1 when
 * ISA-L is missing.
 */
public final class CheckNative {
  private CheckNative() {
  }

  public static void main(String[] args) {
    boolean strict = false;
    for (String a : args) {
      if (a.equals("-a")) {
        strict = true;
      } else {
        System.err.println("Usage: pocache checknative [-a]");
        System.exit(2);
      }
    }
    System.out.println("POCache native library checking (platform " + IsalNative.platform() + "):");
    if (IsalNative.isAvailable()) {
      System.out.println("isal:  true " + IsalNative.loadedFrom());
      System.out.println("coder: auto selects isal");
    } else {
      System.out.println("isal:  false " + IsalNative.failure());
      System.out.println("coder: auto selects java (the pure-Java fallback, byte-identical output)");
    }
    System.exit(strict && !IsalNative.isAvailable() ? 1 : 0);
  }
}
