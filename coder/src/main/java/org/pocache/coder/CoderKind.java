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
