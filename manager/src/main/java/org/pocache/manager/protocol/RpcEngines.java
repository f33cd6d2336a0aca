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

import com.google.protobuf.Message;
import org.apache.hadoop.ipc.RpcEngine;

/**
 * The Hadoop RPC engine that carries POCache's protobuf protocols. Which one depends on
 * the protobuf the message classes were built on, which depends on the drop-in jar:
 * the Hadoop 3.1 jar builds them on protobuf 2.5 ({@code com.google.protobuf}), spoken by
 * {@code ProtobufRpcEngine}; the jar for Hadoop 3.3 and later builds them on protobuf 3
 * relocated to Hadoop's {@code org.apache.hadoop.thirdparty.protobuf}, spoken by
 * {@code ProtobufRpcEngine2}. Both engines put the same bytes on the wire, so clients
 * and Managers of either jar talk to each other.
 */
public final class RpcEngines {
  private static final String THIRDPARTY = "org.apache.hadoop.thirdparty.";

  private RpcEngines() {
  }

  /** The engine for this jar's protocol classes; a LinkageError if this Hadoop has none that fits. */
  public static Class<? extends RpcEngine> protobuf() {
    String engine = Message.class.getName().startsWith(THIRDPARTY)
        ? "org.apache.hadoop.ipc.ProtobufRpcEngine2"
        : "org.apache.hadoop.ipc.ProtobufRpcEngine";
    try {
      return Class.forName(engine).asSubclass(RpcEngine.class);
    } catch (ClassNotFoundException e) {
      throw new NoClassDefFoundError(engine + " is not in this Hadoop: the POCache drop-in jar was built for"
          + " another Hadoop line");
    }
  }
}
