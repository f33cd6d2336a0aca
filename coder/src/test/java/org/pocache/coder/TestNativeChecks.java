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
package org.pocache.coder;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Assume;
import org.junit.Test;

/**
 * Runs in child JVMs: the JNI path under -Xcheck:jni must print no warning; with
 * ISA-L switched off, checknative says why and the Java coder is chosen.
 */
public class TestNativeChecks {

  @Test
  public void jniPathIsCleanUnderXcheckJni() throws Exception {
    Assume.assumeTrue("ISA-L not available: " + IsalCoder.status(), IsalCoder.isAvailable());
    Result r = runJava(Arrays.asList("-Xcheck:jni"), JniExercise.class.getName());
    assertEquals(r.output, 0, r.exit);
    assertTrue(r.output, r.output.contains("OK"));
    for (String line : r.output.split("\n")) {
      // HotSpot writes "Warning: ..." or "WARNING in native method: ..." or "FATAL ERROR ...".
      String l = line.toLowerCase(java.util.Locale.ROOT);
      assertFalse("-Xcheck:jni reported: " + line, l.contains("warning") || l.contains("fatal"));
    }
  }

  @Test
  public void withoutIsalCheckNativeSaysWhyAndAutoFallsBack() throws Exception {
    Result r = runJava(Arrays.asList("-D" + IsalNative.DISABLE_PROPERTY + "=true"), CheckNative.class.getName(),
        "-a");
    assertEquals(r.output, 1, r.exit);
    assertTrue(r.output, r.output.contains("isal:  false disabled by -D" + IsalNative.DISABLE_PROPERTY));
    assertTrue(r.output, r.output.contains("auto selects java"));

    Result ok = runJava(Arrays.asList("-D" + IsalNative.DISABLE_PROPERTY + "=true"), FallbackProbe.class.getName());
    assertEquals(ok.output, 0, ok.exit);
    assertTrue(ok.output, ok.output.contains("auto=java java"));
    assertTrue(ok.output, ok.output.contains("isal refused: coder isal was requested but ISA-L is not available"));
  }

  @Test
  public void theLibraryIsExtractedOncePerUserAndReused() throws Exception {
    Assume.assumeTrue("ISA-L not available: " + IsalCoder.status(), IsalCoder.isAvailable());
    String resource = "native/" + IsalNative.platform() + "/lib" + IsalNative.LIBRARY + ".so";
    java.net.URL url = IsalNative.class.getClassLoader().getResource(resource);
    Assume.assumeTrue("no " + resource + " in the build", url != null);
    File work = java.nio.file.Files.createTempDirectory("pocache-extract").toFile();
    File jar = new File(work, "native-only.jar");
    try (java.util.zip.ZipOutputStream z = new java.util.zip.ZipOutputStream(new java.io.FileOutputStream(jar));
         java.io.InputStream in = url.openStream()) {
      z.putNextEntry(new java.util.zip.ZipEntry(resource));
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        z.write(buf, 0, n);
      }
      z.closeEntry();
    }
    File tmp = new File(work, "tmp");
    assertTrue(tmp.mkdir());
    List<String> jvm = Arrays.asList("-Djava.io.tmpdir=" + tmp);
    String cp = jar + File.pathSeparator
        + System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Result first = runJavaWith(cp, jvm, CheckNative.class.getName());
    Result second = runJavaWith(cp, jvm, CheckNative.class.getName());
    assertEquals(first.output, 0, first.exit);
    File dir = new File(tmp, "pocache-native-" + System.getProperty("user.name"));
    String[] files = dir.list();
    assertEquals("files in " + dir + ": " + Arrays.toString(files), 1, files == null ? 0 : files.length);
    String extracted = new File(dir, files[0]).getPath();
    assertTrue(first.output, first.output.contains("extracted to " + extracted));
    assertTrue(second.output, second.output.contains("extracted to " + extracted));
    assertEquals("nothing else in " + tmp, Arrays.asList(dir.getName()), Arrays.asList(tmp.list()));
    java.util.Set<java.nio.file.attribute.PosixFilePermission> perms =
        java.nio.file.Files.getPosixFilePermissions(dir.toPath());
    assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"), perms);
  }

  @Test
  public void checkNativeRejectsUnknownArguments() throws Exception {
    Result r = runJava(new ArrayList<>(), CheckNative.class.getName(), "--bogus");
    assertEquals(r.output, 2, r.exit);
    assertTrue(r.output, r.output.contains("Usage: pocache checknative [-a]"));
  }

  /** Prints what auto resolves to and whether isal is refused. */
  public static final class FallbackProbe {
    public static void main(String[] args) {
      ErasureCoder c = Coders.create(CodeParameters.of(4, 1), CoderKind.AUTO);
      System.out.println("auto=" + Coders.resolve(CoderKind.AUTO) + " " + c.implementation());
      try {
        Coders.create(CodeParameters.of(4, 1), CoderKind.ISAL);
      } catch (IllegalStateException e) {
        System.out.println("isal refused: " + e.getMessage());
      }
    }
  }

  private static final class Result {
    final int exit;
    final String output;

    Result(int exit, String output) {
      this.exit = exit;
      this.output = output;
    }
  }

  private static Result runJava(List<String> jvmArgs, String main, String... args) throws Exception {
    return runJavaWith(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), jvmArgs,
        main, args);
  }

  private static Result runJavaWith(String cp, List<String> jvmArgs, String main, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(cp);
    cmd.add(main);
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = readAll(p);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish: " + cmd);
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  private static byte[] readAll(Process p) throws Exception {
    java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    try (java.io.InputStream in = p.getInputStream()) {
      while ((n = in.read(buf)) > 0) {
        bos.write(buf, 0, n);
      }
    }
    return bos.toByteArray();
  }
}
