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

import java.util.Objects;

/**
 * The Manager's answer to a reader's lookup: the parity descriptor when the file's
 * parity is cached and current, what CSAC decided, and, when the read itself is to
 * fill the parity, the reservation to fill.
 */
public final class DescriptorLookup {
  private final ParityDescriptor parity;
  private final String decision;
  private final Reservation fill;

  /**
   * @param parity the descriptor, or null when there is none to use
   * @param decision CACHED, SHOULD_CACHE, SHOULD_NOT_CACHE, or why there is no descriptor
   * @param fill the reservation the caller fills (state FILLING), or null
   */
  public DescriptorLookup(ParityDescriptor parity, String decision, Reservation fill) {
    this.parity = parity;
    this.decision = Objects.requireNonNull(decision, "decision");
    this.fill = fill;
  }

  public boolean hasParity() {
    return parity != null;
  }

  /** The descriptor; null if {@link #hasParity()} is false. */
  public ParityDescriptor getParity() {
    return parity;
  }

  public String getDecision() {
    return decision;
  }

  public boolean hasFill() {
    return fill != null;
  }

  /** The reservation to fill; null if {@link #hasFill()} is false. */
  public Reservation getFill() {
    return fill;
  }

  @Override
  public String toString() {
    return decision + (parity == null ? "" : ": " + parity) + (fill == null ? "" : ", fill " + fill);
  }
}
