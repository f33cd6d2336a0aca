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
package org.pocache.csac;

/** What CSAC's Query returns for a file (Algorithm 1, lines 4-12). */
public enum Decision {
  /** The file's parity is in the cache. */
  CACHED,
  /** The file's parity is not cached and should be (admitted, or the file touches a straggler). */
  SHOULD_CACHE,
  /** The file's parity is not cached and should not be. */
  SHOULD_NOT_CACHE
}
