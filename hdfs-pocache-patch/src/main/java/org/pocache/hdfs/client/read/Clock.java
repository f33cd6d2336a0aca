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
package org.pocache.hdfs.client.read;

/**
 * Time as the read engine sees it, in nanoseconds from an arbitrary origin
 * ({@link System#nanoTime}'s contract). Injected, so that every lateness decision can
 * be driven by a test's own clock instead of throttled DataNodes and real waits.
 */
@FunctionalInterface
public interface Clock {
  /** The JVM's monotonic clock. */
  Clock SYSTEM = System::nanoTime;

  long nanoTime();
}
