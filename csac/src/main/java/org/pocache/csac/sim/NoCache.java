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
package org.pocache.csac.sim;

import java.util.Set;
import org.pocache.csac.FileRef;

/** No cache (capacity 0): every read of a file on a straggler hits it. */
final class NoCache extends CountingStrategy {
  private final String name;

  NoCache(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void onWrite(FileRef f) {
  }

  @Override
  public void onStragglers(Set<String> estimated) {
  }

  @Override
  public boolean read(FileRef f, Set<String> actual) {
    return Simulator.blocksOn(f, actual) > 0;
  }
}
