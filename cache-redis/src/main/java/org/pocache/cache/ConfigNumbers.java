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
package org.pocache.cache;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers in POCache's configuration, with the units Hadoop accepts where its own
 * keys do: a key ending in {@code .bytes} takes a binary suffix ({@code 64k},
 * {@code 1m}, {@code 1g}; as {@code Configuration.getLongBytes}), a key ending in
 * {@code .ms} a time unit ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h},
 * {@code 1d}; as {@code Configuration.getTimeDuration}, bare numbers are
 * milliseconds); any other number is a plain integer.
 */
public final class ConfigNumbers {
  private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*([kmgtpe]?)b?", Pattern.CASE_INSENSITIVE);
  private static final Pattern TIME = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

  private ConfigNumbers() {
  }

  /**
   * {@code value} of {@code key}, in [min, max].
   *
   * @throws IllegalArgumentException naming the key, what it takes and what it got
   */
  public static long parse(String key, String value, long min, long max) {
    long n = key.endsWith(".bytes") ? bytes(key, value) : key.endsWith(".ms") ? millis(key, value) : plain(key, value);
    if (n < min || n > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "], got " + n
          + (String.valueOf(n).equals(value) ? "" : " ('" + value + "')"));
    }
    return n;
  }

  private static long plain(String key, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
    }
  }

  private static long bytes(String key, String v) {
    Matcher m = BYTES.matcher(v);
    if (!m.matches()) {
      throw new IllegalArgumentException(key + " must be a number of bytes, optionally with a binary suffix (k, m, g,"
          + " t), got '" + v + "'");
    }
    int shift = 10 * "kmgtpe".indexOf(m.group(2).isEmpty() ? ' ' : m.group(2).toLowerCase(Locale.ROOT).charAt(0)) + 10;
    long n = number(key, m.group(1), v);
    if (shift > 0 && n > Long.MAX_VALUE >> shift) {
      throw new IllegalArgumentException(key + " = '" + v + "' is more bytes than a long holds");
    }
    return n << shift;
  }

  private static long millis(String key, String v) {
    Matcher m = TIME.matcher(v);
    if (!m.matches()) {
      throw new IllegalArgumentException(key + " must be a number of milliseconds, optionally with a unit (ms, s, m,"
          + " h, d), got '" + v + "'");
    }
    long n = number(key, m.group(1), v);
    String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
    TimeUnit u;
    switch (unit) {
      case "ns":
        u = TimeUnit.NANOSECONDS;
        break;
      case "us":
        u = TimeUnit.MICROSECONDS;
        break;
      case "s":
        u = TimeUnit.SECONDS;
        break;
      case "m":
        u = TimeUnit.MINUTES;
        break;
      case "h":
        u = TimeUnit.HOURS;
        break;
      case "d":
        u = TimeUnit.DAYS;
        break;
      default:
        u = TimeUnit.MILLISECONDS;
    }
    return u.toMillis(n); // saturates at Long.MAX_VALUE
  }

  private static long number(String key, String digits, String v) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + v + "' is too large");
    }
  }
}
