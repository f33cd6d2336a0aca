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

import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The SQL workloads of HiBench (scan, aggregation, join), in their shapes, over two
 * Parquet tables that {@code gen} writes: {@code uservisits} (about the size asked for)
 * and {@code rankings} (a page for every {@value #VISITS_PER_PAGE} visits), rows made
 * from their ids by Spark's own hash, so every run writes the same tables.
 *
 * <pre>
 *   uservisits(sourceIP, destURL, visitDate, adRevenue, userAgent, countryCode,
 *              languageCode, searchWord, duration)
 *   rankings(pageURL, pageRank, avgDuration)        destURL is some rankings.pageURL
 * </pre>
 *
 * <ul>
 *   <li>{@code scan}: every column of the visits whose duration passes a filter
 *       Parquet cannot push down, so every row group is read whole;</li>
 *   <li>{@code agg}: revenue per source IP (HiBench's aggregation);</li>
 *   <li>{@code join}: visits of 1999 joined with the rankings of the pages they
 *       visited, rank and revenue per source IP, the top one (HiBench's join).</li>
 * </ul>
 *
 * Each query's result is reduced to a digest that does not depend on task order
 * (row count and the sum of a hash of each row; revenues are decimals, so sums are
 * exact), which the experiment compares across modes.
 */
final class SqlJobs {
  /** Rows of uservisits per MiB asked for (Parquet with Snappy, about 50 bytes a row). */
  static final long VISITS_PER_MIB = 20_500;
  /** Visits per ranked page. */
  static final long VISITS_PER_PAGE = 20;
  /** Distinct source IPs: the aggregation's groups. */
  static final int SOURCE_IPS = 1 << 16;

  private SqlJobs() {
  }

  /** The URL of page {@code id} (a SQL expression over a bigint expression). */
  static String url(String id) {
    return "concat('http://www.', substr(sha2(cast(" + id + " as string), 256), 1, 16), '.example/', " + id + ")";
  }

  /**
   * Writes DIR/uservisits and DIR/rankings, about {@code mib} MiB of visits, in files of
   * about {@code fileMib} MiB with Parquet row groups of {@code rowGroupBytes}.
   */
  static void generate(SparkSession spark, long mib, String dir, long fileMib, long rowGroupBytes) {
    long visits = mib * VISITS_PER_MIB;
    long pages = Math.max(1, visits / VISITS_PER_PAGE);
    int visitFiles = (int) Math.max(1, (mib + fileMib - 1) / fileMib);
    spark.range(0, pages).selectExpr(
        url("id") + " as pageURL",
        "cast(pmod(hash(id, 11), 10000) as int) as pageRank",
        "cast(pmod(hash(id, 12), 100) + 1 as int) as avgDuration")
        .repartition(1)
        .write().mode(SaveMode.Overwrite).option("parquet.block.size", rowGroupBytes)
        .parquet(dir + "/rankings");
    spark.range(0, visits).selectExpr(
        "concat_ws('.', '10', cast(pmod(hash(id, 1), " + SOURCE_IPS + ") div 256 as string),"
            + " cast(pmod(hash(id, 1), 256) as string), '1') as sourceIP",
        url("pmod(hash(id, 5), " + pages + ")") + " as destURL",
        "date_add(date'1998-01-01', pmod(hash(id, 6), 1461)) as visitDate",
        "cast(pmod(hash(id, 7), 100000) / 100.0 as decimal(10, 2)) as adRevenue",
        "concat('Mozilla/5.0 (', substr(sha2(cast(pmod(hash(id, 8), 5000) as string), 256), 1, 40), ')')"
            + " as userAgent",
        "element_at(array('USA', 'DEU', 'CHN', 'IND', 'BRA', 'FRA', 'JPN', 'GBR', 'CAN', 'KOR'),"
            + " pmod(hash(id, 9), 10) + 1) as countryCode",
        "element_at(array('en', 'de', 'zh', 'hi', 'pt', 'fr', 'ja', 'ko'), pmod(hash(id, 10), 8) + 1)"
            + " as languageCode",
        "substr(sha2(cast(id as string), 256), 1, 12) as searchWord",
        "cast(pmod(hash(id, 3), 100) + 1 as int) as duration")
        .repartition(visitFiles)
        .write().mode(SaveMode.Overwrite).option("parquet.block.size", rowGroupBytes)
        .parquet(dir + "/uservisits");
  }

  /** Runs query {@code name} over DIR's tables; returns its digest. */
  static String run(SparkSession spark, String name, String dir) {
    spark.read().parquet(dir + "/uservisits").createOrReplaceTempView("uservisits");
    spark.read().parquet(dir + "/rankings").createOrReplaceTempView("rankings");
    String digest;
    switch (name) {
      case "scan": {
        Row r = spark.sql("SELECT count(*), sum(cast(hash(sourceIP, destURL, visitDate, adRevenue, userAgent,"
            + " countryCode, languageCode, searchWord, duration) as bigint))"
            + " FROM uservisits WHERE duration % 7 = 3").first();
        digest = r.getLong(0) + "/" + r.getLong(1);
        break;
      }
      case "agg": {
        spark.sql("SELECT sourceIP, sum(adRevenue) AS revenue FROM uservisits GROUP BY sourceIP")
            .createOrReplaceTempView("revenue");
        Row r = spark.sql("SELECT count(*), sum(cast(hash(sourceIP, revenue) as bigint)) FROM revenue").first();
        digest = r.getLong(0) + "/" + r.getLong(1);
        break;
      }
      case "join": {
        spark.sql("SELECT sourceIP, sum(pageRank) AS ranks, count(*) AS visits, sum(adRevenue) AS revenue"
            + " FROM rankings R JOIN (SELECT sourceIP, destURL, adRevenue FROM uservisits"
            + " WHERE visitDate >= date'1999-01-01' AND visitDate <= date'2000-01-01') NUV"
            + " ON R.pageURL = NUV.destURL GROUP BY sourceIP").cache().createOrReplaceTempView("joined");
        Row top = spark.sql("SELECT sourceIP, ranks / visits, revenue FROM joined"
            + " ORDER BY revenue DESC, sourceIP LIMIT 1").first();
        Row r = spark.sql("SELECT count(*), sum(cast(hash(sourceIP, ranks, visits, revenue) as bigint))"
            + " FROM joined").first();
        digest = r.getLong(0) + "/" + r.getLong(1) + "/" + top.getString(0)
            + String.format(Locale.ROOT, "/%.6f/", top.getDouble(1)) + top.getDecimal(2).toPlainString();
        break;
      }
      default:
        throw new IllegalArgumentException("unknown SQL job '" + name + "' (scan, agg, join)");
    }
    return digest;
  }
}
