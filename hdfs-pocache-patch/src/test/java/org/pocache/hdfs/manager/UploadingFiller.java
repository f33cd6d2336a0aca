package org.pocache.hdfs.manager;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.pocache.cache.RedisParityStore;
import org.pocache.cache.RedisSettings;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.server.CacheService;
import org.pocache.manager.server.ParityFiller;

/**
 * A ParityFiller for tests until the fill worker of [6/6] exists: fills on one
 * thread with {@link ParityUploader} (real HDFS reads, real coder, real Redis)
 * and commits to the Manager, or aborts on any failure.
 */
public final class UploadingFiller implements ParityFiller {
  private final Configuration conf;
  private final CacheService manager;
  private final ExecutorService worker = Executors.newSingleThreadExecutor();

  public UploadingFiller(Configuration conf, CacheService manager) {
    this.conf = conf;
    this.manager = manager;
  }

  @Override
  public boolean fill(long reservationId, DescriptorProto target) {
    worker.execute(() -> {
      try (RedisParityStore store = RedisParityStore.connect(RedisSettings.from(conf::get))) {
        FileSystem fs = FileSystem.get(conf);
        long bytes = ParityUploader.upload(fs, new Path(target.getPath()), target, target.getLength(), store);
        manager.commit(reservationId, target.getFileId(), target.getLength(), bytes);
      } catch (Exception e) {
        try {
          manager.abort(reservationId, "test fill failed: " + e);
        } catch (IOException ignored) {
          // already ended
        }
      }
    });
    return true;
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }
}
