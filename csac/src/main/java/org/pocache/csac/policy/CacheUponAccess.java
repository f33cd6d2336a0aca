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
package org.pocache.csac.policy;

import org.pocache.csac.FileRef;

/** Cache-upon-access, the POCache paper's admission: always admit. */
public final class CacheUponAccess implements AdmissionPolicy {
  @Override
  public void record(long fileId) {
  }

  @Override
  public boolean admit(FileRef file, boolean fits, EvictionPolicy eviction) {
    return true;
  }

  @Override
  public String name() {
    return "cache-upon-access";
  }
}
