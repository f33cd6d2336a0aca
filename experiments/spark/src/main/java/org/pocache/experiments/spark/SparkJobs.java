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
package org.pocache.experiments.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.split;
import static org.apache.spark.sql.functions.sum;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The Spark jobs of {@code pocache experiment spark}, written as any Spark user would:
 * nothing here knows about POCache. Whether reads and writes go through it is decided
 * by {@code fs.hdfs.impl} in the Hadoop configuration (the experiment passes
 * {@code -Dspark.hadoop.fs.hdfs.impl=...}), and the master by {@code -Dspark.master}.
 *
 * <pre>
 *   wordcount INPUT OUTPUT   RDD word count: textFile (one task per block) -> reduceByKey -> saveAsTextFile
 *   parquet INPUT OUTPUT     DataFrame: the words of INPUT written as Parquet, read back and aggregated
 *   sql-gen MIB DIR          HiBench's SQL tables as Parquet in DIR ({@link SqlJobs}), about MIB MiB, in
 *                            files of 4 HDFS blocks (dfs.blocksize) with row groups of one block
 *   sql-scan|sql-agg|sql-join DIR -
 *                            HiBench's scan, aggregation and join over DIR's tables
 * </pre>
 *
 * Prints one JSON line: the job's time (its Spark actions, without starting the
 * SparkContext), the bytes its tasks read as Spark's input metrics count them, and a
 * digest of the result.
 */
public final class SparkJobs {
  private SparkJobs() {
  }

  /** Sums what Spark's UI shows as a job's Input: the tasks' input metrics. */
  static final class InputMetrics extends SparkListener {
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong recordsRead = new AtomicLong();
    final AtomicLong tasks = new AtomicLong();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      if (end.taskMetrics() != null) {
        bytesRead.addAndGet(end.taskMetrics().inputMetrics().bytesRead());
        recordsRead.addAndGet(end.taskMetrics().inputMetrics().recordsRead());
      }
      tasks.incrementAndGet();
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !(args[0].equals("wordcount") || args[0].equals("parquet")
        || args[0].startsWith("sql-"))) {
      System.err.println("Usage: SparkJobs wordcount|parquet|sql-gen|sql-scan|sql-agg|sql-join INPUT OUTPUT");
      System.exit(2);
    }
    String job = args[0];
    if (job.equals("sql-gen") && !args[1].matches("[1-9][0-9]{0,6}")) {
      System.err.println("SparkJobs sql-gen: the size must be a positive number of MiB, got '" + args[1] + "'");
      System.exit(2);
    }
    String in = args[1];
    String out = args[2];
    SparkSession spark = SparkSession.builder().appName("pocache-experiment-" + job).getOrCreate();
    InputMetrics input = new InputMetrics();
    spark.sparkContext().addSparkListener(input);
    String fsImpl = spark.sparkContext().hadoopConfiguration().get("fs.hdfs.impl", "(default)");
    long t0 = System.nanoTime();
    long writeMs = 0;
    String digest;
    if (job.equals("wordcount")) {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      sc.textFile(in)
          .flatMap(line -> Arrays.asList(line.split("\\s+")).iterator())
          .filter(w -> !w.isEmpty())
          .mapToPair(w -> new Tuple2<>(w, 1L))
          .reduceByKey(Long::sum)
          .saveAsTextFile(out);
      digest = ""; // the experiment compares the part files
    } else if (job.equals("sql-gen")) {
      long block = spark.sparkContext().hadoopConfiguration().getLongBytes("dfs.blocksize", 128L << 20);
      SqlJobs.generate(spark, Long.parseLong(in), out, Math.max(1, 4 * block >> 20), block);
      digest = "";
    } else if (job.startsWith("sql-")) {
      digest = SqlJobs.run(spark, job.substring(4), in);
    } else {
      Dataset<Row> words = spark.read().text(in)
          .select(explode(split(col("value"), "\\s+")).as("word"))
          .filter(length(col("word")).gt(0))
          .withColumn("len", length(col("word")));
      words.write().mode(SaveMode.Overwrite).parquet(out);
      writeMs = (System.nanoTime() - t0) / 1_000_000;
      List<Row> rows = spark.read().parquet(out)
          .groupBy("word").agg(count("*").as("n"), sum("len").as("chars"))
          .orderBy(col("n").desc(), col("word"))
          .collectAsList();
      MessageDigest md = MessageDigest.getInstance("MD5");
      for (Row r : rows) {
        md.update((r.getString(0) + "\t" + r.getLong(1) + "\t" + r.getLong(2) + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      digest = hex(md.digest()) + "/" + rows.size();
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    spark.stop(); // drains the listener bus: every task's metrics are in
    System.out.println(String.format(Locale.ROOT,
        "{\"job\":\"%s\",\"fs\":\"%s\",\"ms\":%d,\"write_ms\":%d,\"input_bytes\":%d,\"input_records\":%d,"
            + "\"tasks\":%d,\"digest\":\"%s\"}",
        job, fsImpl, ms, writeMs, input.bytesRead.get(), input.recordsRead.get(), input.tasks.get(), digest));
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x));
    }
    return s.toString();
  }
}
