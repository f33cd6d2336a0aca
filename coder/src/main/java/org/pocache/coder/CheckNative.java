/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.pocache.coder;

import java.io.PrintStream;

/**
 * {@code pocache checknative [-a]} (also {@code hadoop jar <drop-in jar> -checknative [-a]}):
 * whether ISA-L is loaded, from where, and why not if not, like
 * {@code hadoop checknative}. With -a the exit code is 1 when ISA-L is missing.
 */
public final class CheckNative {
  private CheckNative() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  /** Prints the report to {@code out}; returns the exit code (0, 1 with -a and no ISA-L, 2 usage). */
  public static int run(String[] args, PrintStream out) {
    boolean strict = false;
    for (String a : args) {
      if (a.equals("-a")) {
        strict = true;
      } else {
        System.err.println("Usage: pocache checknative [-a]");
        return 2;
      }
    }
    out.println("POCache native library checking (platform " + IsalNative.platform() + "):");
    if (IsalNative.isAvailable()) {
      out.println("isal:  true " + IsalNative.loadedFrom());
      out.println("coder: auto selects isal");
    } else {
      out.println("isal:  false " + IsalNative.failure());
      out.println("coder: auto selects java (the pure-Java fallback, byte-identical output)");
    }
    out.println("sha256: " + Sha256.implementation() + " (digests of parity values)");
    return strict && !IsalNative.isAvailable() ? 1 : 0;
  }
}
