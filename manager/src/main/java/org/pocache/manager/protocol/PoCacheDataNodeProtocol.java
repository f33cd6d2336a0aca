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

import java.io.IOException;

/**
 * What DataNodes call on the Manager: their heartbeat. A protocol of its own (Hadoop
 * IPC protocol name = this interface's class name), so that service-level
 * authorization can give it an ACL of its own, {@code security.pocache.datanode.protocol.acl}.
 */
public interface PoCacheDataNodeProtocol {
  /** One interval of a DataNode: bytes it served, their service time, read ops. */
  void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException;
}
