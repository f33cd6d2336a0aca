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
package org.pocache.hdfs.compat;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * HDFS client calls whose signature differs between the Hadoop lines the drop-in jar
 * runs on. Code compiled against one line links a method by its exact descriptor, so
 * a method whose return type was narrowed in a later line is missing there
 * ({@code NoSuchMethodError}); these calls bind to whichever shape the running Hadoop
 * has, once per JVM.
 */
public final class HadoopCompat {
  /**
   * {@code LocatedBlock.getLocations()}: {@code DatanodeInfo[]} in Hadoop 3.1 and
   * 3.2, {@code DatanodeInfoWithStorage[]} (a subclass array) from 3.3 on.
   */
  private static final MethodHandle GET_LOCATIONS = locationsHandle();

  private HadoopCompat() {
  }

  /** The DataNodes of {@code block}, in the order HDFS lists them, on any supported Hadoop line. */
  public static DatanodeInfo[] locations(LocatedBlock block) {
    try {
      return (DatanodeInfo[]) GET_LOCATIONS.invokeExact(block);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("LocatedBlock.getLocations() threw a checked exception", t);
    }
  }

  private static MethodHandle locationsHandle() {
    try {
      Class<?> returns = LocatedBlock.class.getMethod("getLocations").getReturnType();
      return MethodHandles.publicLookup()
          .findVirtual(LocatedBlock.class, "getLocations", MethodType.methodType(returns))
          .asType(MethodType.methodType(DatanodeInfo[].class, LocatedBlock.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new LinkageError("this Hadoop's LocatedBlock has no usable getLocations(): " + e, e);
    }
  }
}
