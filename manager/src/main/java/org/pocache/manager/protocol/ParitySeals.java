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
package org.pocache.manager.protocol;

import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;

/** The seal a descriptor or reservation from the Manager says a file's parity is under. */
public final class ParitySeals {
  private ParitySeals() {
  }

  /**
   * @throws IllegalArgumentException if the descriptor says the parity is protected but
   *     carries no usable file key (it then must not be used: see {@link #problem})
   */
  public static ParitySeal of(ParityDescriptor d) {
    switch (d.getProtection()) {
      case PRIVACY:
        return ParitySeal.of(ParityProtection.PRIVACY, d.getSealKeyId(), d.getSealKey());
      case INTEGRITY:
        return ParitySeal.of(ParityProtection.INTEGRITY, d.getSealKeyId(), d.getSealKey());
      default:
        return ParitySeal.NONE;
    }
  }

  /**
   * The seal for reading {@code d}'s parity: with the value digests the Manager recorded
   * at commit, so that a value opens only if it is the one committed.
   *
   * @throws IllegalArgumentException if a protected descriptor lacks its key or digests
   */
  public static ParitySeal forReading(ParityDescriptor d) {
    return of(d).withDigests(d.getValueDigests(), d.getSubstripesPerStripe(), d.getM());
  }

  /** Why a reservation's parity cannot be sealed, or null if it can. */
  public static String problem(ParityDescriptor d) {
    try {
      of(d);
      return null;
    } catch (IllegalArgumentException e) {
      return "the reservation for " + d.getPath() + " carries no usable parity key: " + e.getMessage();
    }
  }

  /** Why a descriptor's parity cannot be opened, or null if it can. */
  public static String readProblem(ParityDescriptor d) {
    try {
      forReading(d);
      return null;
    } catch (IllegalArgumentException e) {
      return "the descriptor of " + d.getPath() + " cannot open its parity: " + e.getMessage();
    }
  }
}
