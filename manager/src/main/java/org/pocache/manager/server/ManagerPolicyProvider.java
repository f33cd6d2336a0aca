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

import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;
import org.pocache.manager.protocol.PoCacheManagerProtocol;

/**
 * Service-level authorization for the Manager's protocol: with
 * {@code hadoop.security.authorization=true}, callers must match the ACL in
 * {@value #ACL_KEY} (core-site.xml or hadoop-policy.xml; default "*", everyone),
 * like Hadoop's own {@code security.*.protocol.acl} keys.
 */
public final class ManagerPolicyProvider extends PolicyProvider {
  public static final String ACL_KEY = "security.pocache.manager.protocol.acl";
  /** DataNode heartbeats: set it to the DataNodes' user (default "*"). */
  public static final String DATANODE_ACL_KEY = "security.pocache.datanode.protocol.acl";

  private static final Service[] SERVICES = {new Service(ACL_KEY, PoCacheManagerProtocol.class),
      new Service(DATANODE_ACL_KEY, org.pocache.manager.protocol.PoCacheDataNodeProtocol.class)};

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
