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
package org.pocache.testkit.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetFactory;

/**
 * A {@code dfs.datanode.fsdataset.factory} that gives each DataNode the stock
 * dataset (FsDatasetImpl) behind a thin proxy, so that the block data a DataNode
 * reads from disk passes through that DataNode's {@link DataNodeThrottle}.
 *
 * <p>Only {@code getBlockInputStream} is intercepted: the stream BlockSender reads
 * block data from. Because the wrapped stream is no FileInputStream, BlockSender
 * copies through user space instead of {@code transferTo}, so the cap applies to
 * every byte served. Checksum (meta) reads, writes and everything else go to the
 * stock dataset unchanged.
 */
public final class StragglerDatasetFactory extends FsDatasetSpi.Factory<FsDatasetSpi<?>> {
  private static final Map<DataNode, DataNodeThrottle> THROTTLES =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** Installs this factory into a cluster (or DataNode) configuration. */
  public static void install(Configuration conf) {
    conf.setClass(DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY, StragglerDatasetFactory.class,
        FsDatasetSpi.Factory.class);
  }

  /**
   * The throttle of a DataNode that was started with this factory.
   *
   * @throws IllegalStateException if the DataNode does not use this factory
   */
  public static DataNodeThrottle throttleOf(DataNode dn) {
    DataNodeThrottle t = THROTTLES.get(dn);
    if (t == null) {
      throw new IllegalStateException("DataNode " + dn.getDisplayName() + " was not started with "
          + StragglerDatasetFactory.class.getSimpleName() + " as "
          + DFSConfigKeys.DFS_DATANODE_FSDATASET_FACTORY_KEY);
    }
    return t;
  }

  @Override
  public FsDatasetSpi<?> newInstance(DataNode datanode, DataStorage storage, Configuration conf)
      throws IOException {
    FsDatasetSpi<?> real = new FsDatasetFactory().newInstance(datanode, storage, conf);
    DataNodeThrottle throttle = new DataNodeThrottle();
    THROTTLES.put(datanode, throttle);
    return (FsDatasetSpi<?>) Proxy.newProxyInstance(FsDatasetSpi.class.getClassLoader(),
        new Class<?>[] {FsDatasetSpi.class}, new Handler(real, throttle));
  }

  private static final class Handler implements InvocationHandler {
    private final FsDatasetSpi<?> real;
    private final DataNodeThrottle throttle;

    Handler(FsDatasetSpi<?> real, DataNodeThrottle throttle) {
      this.real = real;
      this.throttle = throttle;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      boolean blockRead = method.getName().equals("getBlockInputStream");
      if (blockRead) {
        throttle.onReadStart();
      }
      Object result;
      try {
        result = method.invoke(real, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      return blockRead ? new ThrottledInputStream((InputStream) result, throttle) : result;
    }
  }
}
