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

/** The Manager's answer to a writer that asked to cache a new file's parity. */
public final class WriteAdmission {
  private final Reservation reservation;
  private final String reason;

  /**
   * @param reservation the room held for the parity, or null if the write is not cached
   * @param reason why not, when there is no reservation ("admitted" otherwise)
   */
  public WriteAdmission(Reservation reservation, String reason) {
    this.reservation = reservation;
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public boolean hasReservation() {
    return reservation != null;
  }

  /** The reservation; null if {@link #hasReservation()} is false. */
  public Reservation getReservation() {
    return reservation;
  }

  public String getReason() {
    return reason;
  }

  @Override
  public String toString() {
    return reservation != null ? reservation.toString() : "not admitted: " + reason;
  }
}
