package org.pocache.hdfs.tools;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.PoCacheManagerProtocol;
import org.pocache.manager.server.Manager;

/**
 * {@code pocache admin} (or {@code hadoop jar <jar> org.pocache.hdfs.tools.PoCacheAdmin}):
 * operator commands against the Manager. This build has {@code -stragglers}; the
 * cache commands (-report, -ls, -evict, -prefetch) come with the cache index.
 * The Manager is found at dfs.pocache.manager.address on the default file
 * system's host; Hadoop's generic options (-conf, -D) apply.
 */
public final class PoCacheAdmin extends Configured implements Tool {
  static final String USAGE = "Usage: pocache admin [generic options] -stragglers";

  private final PrintStream out;

  public PoCacheAdmin(Configuration conf, PrintStream out) {
    super(conf);
    this.out = out;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 1 || !args[0].equals("-stragglers")) {
      System.err.println(args.length == 0 ? USAGE : "pocache admin: unknown command " + String.join(" ", args)
          + "\n" + USAGE);
      return 2;
    }
    Configuration conf = getConf();
    InetSocketAddress addr = Manager.connectAddress(conf, FileSystem.getDefaultUri(conf).getHost());
    int timeout = PoCacheConfig.getInt(conf, PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_KEY,
        PoCacheConfigKeys.MANAGER_RPC_TIMEOUT_DEFAULT, 1, 600_000);
    try (ManagerClient m = new ManagerClient(addr, conf, Math.max(timeout, 2000))) {
      PoCacheManagerProtocol.StragglerList s = m.getStragglers();
      out.println("Stragglers (" + s.detector + "): " + s.dataNodes.size());
      for (String dn : s.dataNodes) {
        out.println("  " + dn);
      }
      return 0;
    } catch (java.io.IOException e) {
      System.err.println("pocache admin: cannot reach the Manager at " + addr + ": " + e.getMessage());
      return 1;
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PoCacheAdmin(new HdfsConfiguration(), System.out), args));
  }
}
