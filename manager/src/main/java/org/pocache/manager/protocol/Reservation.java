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
 * Room the Manager holds for one file's parity while a writer or a reader-fill uploads
 * it: the descriptor to write under (state RESERVED or FILLING) until it is committed
 * or aborted, or expires.
 */
public final class Reservation {
  private final long id;
  private final ParityDescriptor parity;
  private final long expiresAtMillis;

  public Reservation(long id, ParityDescriptor parity, long expiresAtMillis) {
    this.id = id;
    this.parity = Objects.requireNonNull(parity, "parity");
    this.expiresAtMillis = expiresAtMillis;
  }

  public long getId() {
    return id;
  }

  /** The generation, code parameters, key prefix and seal to upload with. */
  public ParityDescriptor getParity() {
    return parity;
  }

  /** When the Manager drops it if it is neither committed nor aborted (epoch milliseconds). */
  public long getExpiresAtMillis() {
    return expiresAtMillis;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Reservation && ((Reservation) o).id == id && ((Reservation) o).parity.equals(parity)
        && ((Reservation) o).expiresAtMillis == expiresAtMillis;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "reservation " + id + " for " + parity;
  }
}
