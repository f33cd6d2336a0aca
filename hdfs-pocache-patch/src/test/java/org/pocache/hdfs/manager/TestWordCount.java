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
package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.Test;
import org.pocache.hdfs.client.PoCacheFileSystem;
import org.pocache.manager.protocol.ManagerClient;

/**
 * Hadoop's own wordcount example, unmodified, on LocalJobRunner over files in the
 * cluster, with fs.hdfs.impl = PoCacheFileSystem, the input's parity cached and one
 * DataNode slowed down: its output is identical to the same job on stock HDFS.
 */
public class TestWordCount {
  @Test
  public void outputIsIdenticalToVanilla() throws Exception {
    try (ManagerCluster c = ManagerCluster.start(4, Collections.<String, String>emptyMap());
         ManagerClient m = c.client()) {
      GenericTestUtils.waitFor(() -> c.manager().cache().ready(), 50, 10_000);
      FileSystem hdfs = c.hdfs.fs();
      Random r = new Random(5);
      String[] words = {"straggler", "parity", "stripe", "redis", "hdfs", "block", "decode", "cache"};
      for (int f = 0; f < 3; f++) {
        Path p = new Path("/wc/in/part-" + f);
        try (FSDataOutputStream out = hdfs.create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
          StringBuilder sb = new StringBuilder();
          while (sb.length() < 3 * ManagerCluster.BLOCK) {
            sb.append(words[r.nextInt(words.length)]).append(r.nextInt(10) == 0 ? '\n' : ' ');
          }
          out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        m.prefetch(p.toString());
      }
      GenericTestUtils.waitFor(() -> {
        try {
          return m.listCached("/wc/in", 10).getDescriptors().size() == 3 && m.listCached("/wc/in", 10)
              .getDescriptors().stream().allMatch(d -> d.getState().name().equals("CACHED"));
        } catch (Exception e) {
          return false;
        }
      }, 50, 20_000);

      String vanilla = run(c, new Configuration(c.hdfs.conf()), "/wc/out-vanilla");
      Configuration pc = new Configuration(c.hdfs.conf());
      pc.set("fs.hdfs.impl", PoCacheFileSystem.class.getName());
      pc.setBoolean("fs.hdfs.impl.disable.cache", true);
      c.hdfs.throttle(2).setDelayPerRead(200);
      String pocache;
      try {
        pocache = run(c, pc, "/wc/out-pocache");
      } finally {
        c.hdfs.throttle(2).reset();
      }
      assertTrue(vanilla, vanilla.contains("straggler\t"));
      assertEquals(vanilla, pocache);
    }
  }

  private static String run(ManagerCluster c, Configuration conf, String out) throws Exception {
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.cluster.local.dir", new java.io.File(System.getProperty("test.build.data", "target"),
        "mr-local").getAbsolutePath());
    assertEquals(0, ToolRunner.run(conf, new WordCountTool(), new String[] {"/wc/in", out}));
    FileSystem fs = FileSystem.get(c.hdfs.fs().getUri(), conf);
    if (conf.get("fs.hdfs.impl", "").equals(PoCacheFileSystem.class.getName())) {
      assertTrue(fs instanceof PoCacheFileSystem);
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (InputStream in = fs.open(new Path(out, "part-r-00000"))) {
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        b.write(buf, 0, n);
      }
    }
    return b.toString("UTF-8");
  }

  /** WordCount.main calls System.exit; this runs the same job through ToolRunner. */
  public static final class WordCountTool extends org.apache.hadoop.conf.Configured
      implements org.apache.hadoop.util.Tool {
    @Override
    public int run(String[] args) throws Exception {
      org.apache.hadoop.mapreduce.Job job = org.apache.hadoop.mapreduce.Job.getInstance(getConf(), "word count");
      job.setJarByClass(WordCount.class);
      job.setMapperClass(WordCount.TokenizerMapper.class);
      job.setCombinerClass(WordCount.IntSumReducer.class);
      job.setReducerClass(WordCount.IntSumReducer.class);
      job.setOutputKeyClass(org.apache.hadoop.io.Text.class);
      job.setOutputValueClass(org.apache.hadoop.io.IntWritable.class);
      org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(job, new Path(args[0]));
      org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.setOutputPath(job, new Path(args[1]));
      return job.waitForCompletion(false) ? 0 : 1;
    }
  }
}
