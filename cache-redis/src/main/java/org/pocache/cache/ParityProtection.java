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

/**
 * How parity values are protected in Redis ({@code dfs.pocache.parity.protection}).
 *
 * <ul>
 *   <li>{@link #PRIVACY}: the data CRCs and the parity are also encrypted (AES-256-GCM)
 *       under a key of the file's own; Redis does not see the file's bytes.</li>
 *   <li>{@link #INTEGRITY}: the parity is stored in clear, and a reader uses a value only
 *       if it hashes (SHA-256) to the digest the Manager recorded when the parity was
 *       committed: Redis, or a reader of the file, cannot change what a reader decodes.</li>
 *   <li>{@link #NONE}: CRC32C only, which catches accidents, not forgeries. For networks
 *       where everyone who can reach Redis may also read and write every cached file.</li>
 * </ul>
 */
public enum ParityProtection {
  NONE(0), INTEGRITY(1), PRIVACY(2);

  /** The byte stored in a value header. */
  final int code;

  ParityProtection(int code) {
    this.code = code;
  }

  static ParityProtection ofCode(int code) {
    for (ParityProtection p : values()) {
      if (p.code == code) {
        return p;
      }
    }
    return null;
  }

  /**
   * Parses an operator's setting (case-insensitive).
   *
   * @throws IllegalArgumentException naming the key and the accepted values
   */
  public static ParityProtection parse(String key, String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    switch (v) {
      case "none":
        return NONE;
      case "integrity":
        return INTEGRITY;
      case "privacy":
        return PRIVACY;
      default:
        throw new IllegalArgumentException(key + " must be privacy, integrity or none, got '" + value + "'");
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
