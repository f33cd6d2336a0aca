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

import java.util.Iterator;

/**
 * Predicts which files will be read soon (CSAC's G_p), for prefetching. It keeps
 * a bounded history of recently read files.
 */
public interface PredictionPolicy {
  void record(long fileId);

  /** The file is gone (deleted or overwritten). */
  void forget(long fileId);

  /** Files in order of how likely they are to be read soon, most likely first. */
  Iterator<Long> candidates();

  String name();
}
