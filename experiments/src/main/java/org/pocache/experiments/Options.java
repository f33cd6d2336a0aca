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
package org.pocache.experiments;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --name value} / {@code --name=value} / {@code --flag} command-line options
 * against a fixed set of known names. Anything unknown, repeated or malformed is a
 * {@link UsageException} that names it.
 */
public final class Options {
  private final Map<String, String> values = new LinkedHashMap<>();

  private Options() {
  }

  /**
   * @param valued names that take a value
   * @param flags names that take none
   */
  public static Options parse(String[] args, Iterable<String> valued, Iterable<String> flags)
      throws UsageException {
    java.util.Set<String> withValue = new java.util.HashSet<>();
    valued.forEach(withValue::add);
    java.util.Set<String> bare = new java.util.HashSet<>();
    flags.forEach(bare::add);
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || a.length() == 2) {
        throw new UsageException("unexpected argument '" + a + "'");
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (bare.contains(name)) {
        if (value != null) {
          throw new UsageException("option --" + name + " takes no value");
        }
        value = "true";
      } else if (withValue.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.length) {
            throw new UsageException("option --" + name + " needs a value");
          }
          value = args[++i];
        }
      } else {
        throw new UsageException("unknown option --" + name);
      }
      if (o.values.put(name, value) != null) {
        throw new UsageException("option --" + name + " given twice");
      }
    }
    return o;
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public String string(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  public int intValue(String name, int dflt, int min, int max) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw new UsageException("--" + name + " must be in [" + min + ", " + max + "], got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be an integer, got '" + v + "'");
    }
  }

  public double doubleValue(String name, double dflt, double min) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (!(d >= min) || Double.isInfinite(d)) {
        throw new UsageException("--" + name + " must be a number >= " + min + ", got " + v);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a number, got '" + v + "'");
    }
  }

  /** A byte count with an optional binary suffix: 4194304, 4096k, 4m, 1g. */
  public long bytes(String name, long dflt, long min) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      long b = parseBytes(v);
      if (b < min) {
        throw new UsageException("--" + name + " must be at least " + min + " bytes, got " + v);
      }
      return b;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a size like 4194304, 512k, 4m or 1g, got '" + v + "'");
    }
  }

  /** Parses a size like 4096, 512k, 4m or 1g; NumberFormatException if it is not one. */
  public static long parseBytes(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("b")) {
      t = t.substring(0, t.length() - 1);
    }
    int shift = 0;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'k':
          shift = 10;
          break;
        case 'm':
          shift = 20;
          break;
        case 'g':
          shift = 30;
          break;
        default:
          break;
      }
    }
    if (shift > 0) {
      t = t.substring(0, t.length() - 1);
    }
    long n = Long.parseLong(t);
    if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
      throw new NumberFormatException(s);
    }
    return n << shift;
  }
}
