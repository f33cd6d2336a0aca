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
package org.pocache.manager.server;

import org.pocache.manager.protocol.ParityDescriptor;

/**
 * Executes the Manager's fills (admit-on-read and prefetch): reads the file's
 * stripes through HDFS, encodes them under the descriptor's code and generation,
 * uploads the parity, then commits ({@link CacheService#commit}) or aborts
 * ({@link CacheService#abort}) the reservation. The Manager owns the decision;
 * the filler owns the bytes. {@link #fill} must return at once and do the work on
 * its own threads; a fill that is never finished expires with its reservation.
 *
 * <p>Named by {@code dfs.pocache.manager.filler.class}; the class needs a public
 * constructor taking ({@link org.apache.hadoop.conf.Configuration}, {@link CacheService}).
 */
public interface ParityFiller extends AutoCloseable {
  /**
   * Starts filling one file.
   *
   * @param reservationId to commit or abort when done
   * @param target the file (id, path, length) and the code, generation and key
   *     prefix to fill it under; its state is FILLING
   * @return false if the filler cannot take it now (overloaded); the Manager then
   *     releases the reservation
   */
  boolean fill(long reservationId, ParityDescriptor target);

  @Override
  void close();
}
