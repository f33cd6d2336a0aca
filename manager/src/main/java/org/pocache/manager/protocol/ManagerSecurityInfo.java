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

import java.lang.annotation.Annotation;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.SecurityInfo;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.TokenInfo;
import org.apache.hadoop.security.token.TokenSelector;
import org.pocache.manager.PoCacheConfigKeys;

/**
 * How Hadoop IPC authenticates to the Manager under Kerberos, registered through
 * {@code META-INF/services/org.apache.hadoop.security.SecurityInfo} so that it applies
 * without any client setting.
 *
 * <ul>
 *   <li>Kerberos: the Manager's principal is {@code dfs.pocache.manager.kerberos.principal}
 *       when set (a standalone Manager), else the NameNode's
 *       ({@code dfs.namenode.kerberos.principal}): the Manager runs inside the NameNode
 *       and authenticates as it.</li>
 *   <li>Delegation tokens: a MapReduce or Spark task has no Kerberos ticket, only the
 *       HDFS delegation tokens its job collected. The Manager inside the NameNode checks
 *       those with the NameNode's own secret manager, so a task's lookups authenticate as
 *       the job's user with the token it already holds. {@link HdfsTokenSelector} picks it.</li>
 * </ul>
 */
public final class ManagerSecurityInfo extends SecurityInfo {
  /** The NameNode's principal key (DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY). */
  static final String NAMENODE_PRINCIPAL_KEY = "dfs.namenode.kerberos.principal";

  @Override
  public KerberosInfo getKerberosInfo(Class<?> protocol, Configuration conf) {
    if (protocol != PoCacheManagerProtocolPB.class && protocol != PoCacheDataNodeProtocolPB.class) {
      return null;
    }
    String key = conf != null && !conf.getTrimmed(PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY, "").isEmpty()
        ? PoCacheConfigKeys.MANAGER_KERBEROS_PRINCIPAL_KEY : NAMENODE_PRINCIPAL_KEY;
    return new KerberosInfo() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return KerberosInfo.class;
      }

      @Override
      public String serverPrincipal() {
        return key;
      }

      @Override
      public String clientPrincipal() {
        return "";
      }
    };
  }

  @Override
  public TokenInfo getTokenInfo(Class<?> protocol, Configuration conf) {
    if (protocol != PoCacheManagerProtocolPB.class && protocol != PoCacheDataNodeProtocolPB.class) {
      return null;
    }
    return new TokenInfo() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return TokenInfo.class;
      }

      @Override
      public Class<? extends TokenSelector<? extends TokenIdentifier>> value() {
        return HdfsTokenSelector.class;
      }
    };
  }

  /**
   * Picks the caller's HDFS delegation token for the NameNode on the Manager's host
   * (the Manager's address differs from the NameNode's only in its port), or, failing
   * that, the only HDFS delegation token the caller holds (HA: "ha-hdfs:nameservice").
   */
  public static final class HdfsTokenSelector implements TokenSelector<TokenIdentifier> {
    static final Text HDFS_DELEGATION_KIND = new Text("HDFS_DELEGATION_TOKEN");

    @SuppressWarnings("unchecked")
    @Override
    public Token<TokenIdentifier> selectToken(Text service, Collection<Token<? extends TokenIdentifier>> tokens) {
      if (service == null) {
        return null;
      }
      String s = service.toString();
      String host = s.lastIndexOf(':') > 0 ? s.substring(0, s.lastIndexOf(':')) : s;
      Token<? extends TokenIdentifier> only = null;
      int hdfs = 0;
      for (Token<? extends TokenIdentifier> t : tokens) {
        if (!HDFS_DELEGATION_KIND.equals(t.getKind())) {
          continue;
        }
        hdfs++;
        only = t;
        String ts = t.getService().toString();
        String th = ts.lastIndexOf(':') > 0 ? ts.substring(0, ts.lastIndexOf(':')) : ts;
        if (th.equals(host)) {
          return (Token<TokenIdentifier>) t;
        }
      }
      return hdfs == 1 ? (Token<TokenIdentifier>) only : null;
    }
  }
}
