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
package org.pocache.hdfs.contract;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs Hadoop's own FileSystem contract suites for HDFS (every
 * {@code org.apache.hadoop.fs.contract.hdfs.TestHDFSContract*} class of the hadoop-hdfs
 * tests jar on the class path) in this JVM, configured by whatever site files the class
 * path holds, and prints one line per test: {@code CONTRACT PASS|FAIL|SKIP class#method}
 * (a failure with the first line of its message), then {@code CONTRACT SUMMARY}. The
 * suites start their own MiniDFSCluster from {@code hdfs-site.xml}; with POCache's site
 * files on the class path that cluster hosts the Manager and DataNode plugins and its
 * clients are {@code PoCacheFileSystem}s. {@link ITContractSuites} runs this twice per
 * Hadoop line, with stock and with POCache's site files, and compares.
 */
public final class ContractRunner {
  private ContractRunner() {
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = new HdfsConfiguration();
    System.out.println("CONTRACT FS " + FileSystem.getFileSystemClass("hdfs", conf).getName());
    List<Class<?>> suites = suites();
    if (suites.isEmpty()) {
      System.out.println("CONTRACT FAILED: no TestHDFSContract* class on the class path");
      System.exit(2);
    }
    int[] counts = new int[3]; // pass, fail, skip
    JUnitCore junit = new JUnitCore();
    junit.addListener(new RunListener() {
      private boolean failed;

      @Override
      public void testStarted(Description d) {
        failed = false;
      }

      @Override
      public void testFailure(Failure f) {
        failed = true;
        counts[1]++;
        String msg = String.valueOf(f.getMessage()).split("\n", 2)[0];
        System.out.println("CONTRACT FAIL " + name(f.getDescription()) + " " + msg);
      }

      @Override
      public void testAssumptionFailure(Failure f) {
        failed = true;
        counts[2]++;
        System.out.println("CONTRACT SKIP " + name(f.getDescription()));
      }

      @Override
      public void testIgnored(Description d) {
        counts[2]++;
        System.out.println("CONTRACT SKIP " + name(d));
      }

      @Override
      public void testFinished(Description d) {
        if (!failed) {
          counts[0]++;
          System.out.println("CONTRACT PASS " + name(d));
        }
      }
    });
    for (Class<?> c : suites) {
      junit.run(Request.aClass(c));
    }
    System.out.printf("CONTRACT SUMMARY suites=%d pass=%d fail=%d skip=%d%n", suites.size(), counts[0], counts[1],
        counts[2]);
    System.exit(0);
  }

  private static String name(Description d) {
    String cls = d.getClassName();
    return cls.substring(cls.lastIndexOf('.') + 1) + "#" + d.getMethodName();
  }

  /** The contract test classes in the jar that holds HDFS's contract. */
  private static List<Class<?>> suites() throws IOException, ClassNotFoundException, URISyntaxException {
    Class<?> contract = Class.forName("org.apache.hadoop.fs.contract.hdfs.HDFSContract");
    File jar = new File(contract.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> names = new ArrayList<>();
    try (JarFile j = new JarFile(jar)) {
      for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.startsWith("org/apache/hadoop/fs/contract/hdfs/TestHDFSContract") && n.endsWith(".class")
            && !n.contains("$")) {
          names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
        }
      }
    }
    Collections.sort(names);
    List<Class<?>> out = new ArrayList<>();
    for (String n : names) {
      out.add(Class.forName(n));
    }
    return out;
  }
}
