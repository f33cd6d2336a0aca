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
package org.pocache.manager;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.ConfigNumbers;

/**
 * Typed, validating access to the {@code dfs.pocache.*} keys. Hadoop's own getters
 * silently fall back to the default on a typo ("ture"); these fail at startup
 * with the key's name, so a misconfiguration is found when it is made.
 *
 * <p>Defaults live in {@link PoCacheConfigKeys}, never in a Configuration
 * resource: {@code pocache-default.xml} is only the reference that documents
 * them. Registering it with {@code Configuration.addDefaultResource} would load it
 * after {@code core-site.xml} and {@code hdfs-site.xml} (default resources load in
 * the order they were added, and Hadoop adds the site files first), so its values
 * would override what the operator set.
 */
public final class PoCacheConfig {
  /** The file documenting every key with its default (a reference; never loaded as a resource). */
  public static final String DEFAULT_RESOURCE = "pocache-default.xml";

  private PoCacheConfig() {
  }

  /** {@link PoCacheConfigKeys#ENABLED_KEY}. */
  public static boolean isEnabled(Configuration conf) {
    return getBoolean(conf, PoCacheConfigKeys.ENABLED_KEY, PoCacheConfigKeys.ENABLED_DEFAULT);
  }

  /** {@link PoCacheConfigKeys#CODER_KEY}, lower-cased: auto, isal or java. */
  public static String getCoder(Configuration conf) {
    return getChoice(conf, PoCacheConfigKeys.CODER_KEY, PoCacheConfigKeys.CODER_DEFAULT,
        PoCacheConfigKeys.CODER_CHOICES);
  }

  /**
   * A key whose value must be one of {@code choices} (any case, blanks trimmed).
   *
   * @throws IllegalArgumentException naming the key, the value and the choices otherwise
   */
  public static String getChoice(Configuration conf, String key, String dflt, String... choices) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    String lower = v.toLowerCase(Locale.ROOT);
    for (String c : choices) {
      if (c.equals(lower)) {
        return c;
      }
    }
    throw new IllegalArgumentException(key + " must be one of " + String.join(", ", choices) + ", got '" + v + "'");
  }

  /**
   * An integer key in [min, max].
   *
   * @throws IllegalArgumentException naming the key otherwise
   */
  public static int getInt(Configuration conf, String key, String dflt, int min, int max) {
    return (int) getLong(conf, key, dflt, min, max);
  }

  /**
   * A number in [min, max]; keys ending in {@code .bytes} take k, m, g, t suffixes and
   * keys ending in {@code .ms} a time unit (see {@link ConfigNumbers}).
   *
   * @throws IllegalArgumentException naming the key
   */
  public static long getLong(Configuration conf, String key, String dflt, long min, long max) {
    return ConfigNumbers.parse(key, conf.getTrimmed(key, dflt), min, max);
  }

  /**
   * A number key in [min, max].
   *
   * @throws IllegalArgumentException naming the key otherwise
   */
  public static double getDouble(Configuration conf, String key, String dflt, double min, double max) {
    String v = conf.getTrimmed(key, dflt);
    try {
      double d = Double.parseDouble(v);
      if (!(d >= min && d <= max)) {
        throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "], got " + v);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, got '" + v + "'");
    }
  }

  /**
   * A host:port key (port 0 allowed: any free port).
   *
   * @throws IllegalArgumentException naming the key otherwise
   */
  public static java.net.InetSocketAddress getAddress(Configuration conf, String key, String dflt) {
    String v = conf.getTrimmed(key, dflt);
    int colon = v.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(key + " must be host:port, got '" + v + "'");
    }
    int port;
    try {
      port = Integer.parseInt(v.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be host:port, got '" + v + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(key + ": port " + port + " is out of range 0-65535");
    }
    return java.net.InetSocketAddress.createUnresolved(v.substring(0, colon), port);
  }

  /**
   * A boolean key that must be "true" or "false" (any case, surrounding blanks ignored).
   *
   * @throws IllegalArgumentException naming the key and the value otherwise
   */
  public static boolean getBoolean(Configuration conf, String key, boolean dflt) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
    }
  }

  /**
   * The lookup {@link org.pocache.cache.RedisSettings#from} reads the Redis keys through:
   * {@code conf.get}, except that the Redis password and the trust store password are
   * read with {@link Configuration#getPassword}, so a credential provider
   * ({@code hadoop.security.credential.provider.path}) can hold them instead of a site file.
   *
   * @throws IllegalArgumentException naming the key if a credential provider cannot be read
   */
  public static java.util.function.Function<String, String> redisLookup(Configuration conf) {
    return key -> {
      if (!key.equals(org.pocache.cache.RedisSettings.PASSWORD_KEY)
          && !key.equals(org.pocache.cache.RedisSettings.TRUSTSTORE_PASSWORD_KEY)) {
        return conf.get(key);
      }
      try {
        char[] p = conf.getPassword(key);
        return p == null ? null : new String(p);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException(key + " cannot be read from the credential providers: " + e.getMessage(),
            e);
      }
    };
  }
}
