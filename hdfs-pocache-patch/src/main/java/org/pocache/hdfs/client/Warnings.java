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
package org.pocache.hdfs.client;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the client says that it fell back to plain HDFS: the first time for each kind
 * of fallback at WARN (once per JVM, however many FileSystems and streams meet it), later
 * ones at DEBUG. The FileSystem hands it down to the streams and readers it makes.
 */
final class Warnings {
  /** The client's one instance: a fallback is said once per JVM. */
  static final Warnings CLIENT = new Warnings(LoggerFactory.getLogger(PoCacheFileSystem.class));

  /** What a LinkageError from POCache's own code means, and what to do about it. */
  static final String MISMATCHED_JAR = "POCache's classes do not fit this Hadoop client (a class or method is"
      + " missing or of another shape: install the drop-in jar built for this Hadoop line); files are read and"
      + " written as plain HDFS";

  private final Logger log;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  Warnings(Logger log) {
    this.log = log;
  }

  /** Says {@code what} happened and {@code why}: at WARN the first time, at DEBUG after. */
  void once(String what, Throwable why) {
    if (warned.add(what)) {
      log.warn("{} (reads stay correct; further occurrences are logged at DEBUG): {}", what, why.toString());
    } else {
      log.debug("{}: {}", what, why.toString());
    }
  }
}
