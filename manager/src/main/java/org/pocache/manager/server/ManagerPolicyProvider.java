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
