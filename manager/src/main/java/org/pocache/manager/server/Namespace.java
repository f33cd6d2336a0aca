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
package org.pocache.manager.server;

import java.io.IOException;

/**
 * The Manager's only view of HDFS: file metadata with the NameNode's own
 * permission checks. Inside the NameNode the plugin implements it over the
 * NameNode's RPC server in the calling thread, so a lookup made while serving a
 * Manager RPC is checked as that RPC's caller; standalone, it calls the NameNode
 * as a proxy user for the caller.
 */
public interface Namespace {
  /**
   * The file at {@code path}, checked as the current caller: the NameNode's READ
   * permission check applies.
   *
   * @throws java.io.FileNotFoundException if there is no such file
   * @throws org.apache.hadoop.security.AccessControlException if the caller may not read it
   */
  FileInfo open(String path) throws IOException;

  /**
   * Whether {@code path} is still the file {@code seen} describes, with the same length
   * and modification time (a cheaper question than {@link #open}: no permission check
   * beyond the path's, no block list). False when it cannot be told cheaply, which
   * makes the Manager {@link #open} the path instead.
   */
  default boolean unchanged(String path, FileInfo seen) throws IOException {
    return false;
  }

  /**
   * The file with inode id {@code fileId}, or null if it no longer exists. Called
   * by the Manager's own threads (as the Manager) and by RPC handlers (as the caller).
   * Its {@link FileInfo#path} is {@link #pathOf}'s answer, null where that has none.
   */
  FileInfo byId(long fileId) throws IOException;

  /**
   * The current full path of inode {@code fileId}, or null if it is gone or this namespace
   * cannot tell (a standalone Manager: the NameNode's RPCs do not name an inode's path).
   * Not permission-checked: for the Manager's own threads and operators' listings only.
   */
  default String pathOf(long fileId) {
    return null;
  }

  /**
   * Whether anything (a file or a directory) exists at {@code path}, as the caller
   * sees it.
   */
  boolean exists(String path) throws IOException;

  /**
   * The transfer addresses (host:port) of the DataNodes the NameNode has registered,
   * or null if this namespace cannot tell (the list needs HDFS superuser rights).
   */
  default java.util.Set<String> dataNodes() throws IOException {
    return null;
  }

  /**
   * Whether the current caller may write the file at {@code path} (the NameNode's own
   * WRITE check). Only such callers fill protected parity while they read.
   */
  default boolean canWrite(String path) throws IOException {
    return false;
  }

  /**
   * False once the namespace is going away (the NameNode hosting the Manager is
   * shutting down): the Manager's housekeeping then stops asking it, quietly.
   */
  default boolean available() {
    return true;
  }
}
