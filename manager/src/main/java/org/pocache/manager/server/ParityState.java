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

/** Where a file's parity stands in the Manager's index. */
enum ParityState {
  /** A write was admitted; its parity is being uploaded as it is written. */
  RESERVED,
  /** A reader or the fill worker is making the parity of a closed file. */
  FILLING,
  /** Committed: served to readers while it matches the file. */
  CACHED,
  /** Dropped from the index; its keys are being deleted. */
  EVICTING;

  /** As descriptors (and so the index in Redis) carry it: the same names. */
  ParityDescriptor.State toDescriptorState() {
    return ParityDescriptor.State.valueOf(name());
  }

  static ParityState of(ParityDescriptor.State p) {
    return valueOf(p.name());
  }
}
