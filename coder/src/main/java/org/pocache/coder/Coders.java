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

import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates coders of the configured kind. What {@code auto} resolves to is decided
 * once per JVM and logged once, with the reason when ISA-L is not used.
 */
public final class Coders {
  private static final Logger LOG = LoggerFactory.getLogger(Coders.class);
  private static final Map<CoderKind, CoderKind> RESOLVED = new EnumMap<>(CoderKind.class);

  private Coders() {
  }

  /**
   * A new coder for {@code params}.
   *
   * @throws IllegalStateException if {@code isal} is asked for and ISA-L is not loaded
   */
  public static ErasureCoder create(CodeParameters params, CoderKind kind) {
    return resolve(kind) == CoderKind.ISAL ? new IsalCoder(params) : new JavaCoder(params);
  }

  /** ISAL or JAVA: what a request for {@code kind} gets in this JVM. */
  public static synchronized CoderKind resolve(CoderKind kind) {
    CoderKind r = RESOLVED.get(kind);
    if (r != null) {
      return r;
    }
    switch (kind) {
      case ISAL:
        if (!IsalNative.isAvailable()) {
          throw new IllegalStateException("coder isal was requested but ISA-L is not available: "
              + IsalNative.failure());
        }
        r = CoderKind.ISAL;
        LOG.info("Erasure coder: ISA-L, loaded from {}", IsalNative.loadedFrom());
        break;
      case JAVA:
        r = CoderKind.JAVA;
        LOG.info("Erasure coder: pure Java (as configured)");
        break;
      default:
        if (IsalNative.isAvailable()) {
          r = CoderKind.ISAL;
          LOG.info("Erasure coder: ISA-L (auto), loaded from {}", IsalNative.loadedFrom());
        } else {
          r = CoderKind.JAVA;
          LOG.warn("Erasure coder: pure Java (auto), because ISA-L is not available: {}",
              IsalNative.failure());
        }
        break;
    }
    RESOLVED.put(kind, r);
    return r;
  }
}
