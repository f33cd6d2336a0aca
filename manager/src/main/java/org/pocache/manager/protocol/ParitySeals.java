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
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;

/** The seal a descriptor or reservation from the Manager says a file's parity is under. */
public final class ParitySeals {
  private ParitySeals() {
  }

  /**
   * @throws IllegalArgumentException if the descriptor says the parity is protected but
   *     carries no usable file key (it then must not be used: see {@link #problem})
   */
  public static ParitySeal of(DescriptorProto d) {
    switch (d.getProtection()) {
      case PROTECTION_PRIVACY:
        return ParitySeal.of(ParityProtection.PRIVACY, d.getSealKeyId(), d.getSealKey().toByteArray());
      case PROTECTION_INTEGRITY:
        return ParitySeal.of(ParityProtection.INTEGRITY, d.getSealKeyId(), d.getSealKey().toByteArray());
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
  public static ParitySeal forReading(DescriptorProto d) {
    return of(d).withDigests(d.getValueDigests().toByteArray(), d.getSubstripesPerStripe(), d.getM());
  }

  /** Why a reservation's parity cannot be sealed, or null if it can. */
  public static String problem(DescriptorProto d) {
    try {
      of(d);
      return null;
    } catch (IllegalArgumentException e) {
      return "the reservation for " + d.getPath() + " carries no usable parity key: " + e.getMessage();
    }
  }

  /** Why a descriptor's parity cannot be opened, or null if it can. */
  public static String readProblem(DescriptorProto d) {
    try {
      forReading(d);
      return null;
    } catch (IllegalArgumentException e) {
      return "the descriptor of " + d.getPath() + " cannot open its parity: " + e.getMessage();
    }
  }
}
