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

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Cached files as {@code listCached} shows them (without file keys), sorted by path. */
public final class CachedFiles {
  private final List<ParityDescriptor> descriptors;
  private final boolean truncated;

  public CachedFiles(List<ParityDescriptor> descriptors, boolean truncated) {
    this.descriptors = Collections.unmodifiableList(Objects.requireNonNull(descriptors, "descriptors"));
    this.truncated = truncated;
  }

  public List<ParityDescriptor> getDescriptors() {
    return descriptors;
  }

  /** Whether more files matched than the limit asked for. */
  public boolean isTruncated() {
    return truncated;
  }
}
