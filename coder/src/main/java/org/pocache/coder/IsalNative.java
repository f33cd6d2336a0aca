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

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The JNI binding to ISA-L (src/main/native/pocache_isal.c), loaded once per JVM:
 * first the library packaged in this jar for the running os/arch
 * ({@code native/<os>-<arch>/libpocache_isal.so}), extracted once per user and
 * content under java.io.tmpdir (see {@link #extract});
 * else {@code pocache_isal} from java.library.path. Either way it needs
 * libisal.so.2 (Debian's libisal2, pulled in by libisal-dev).
 *
 * <p>Callers must have validated every argument: the native side trusts counts,
 * lengths and offsets.
 */
final class IsalNative {
  /** Set to true to behave as if ISA-L were missing (tests of the fallback). */
  static final String DISABLE_PROPERTY = "pocache.coder.isal.disabled";
  static final String LIBRARY = "pocache_isal";

  private static final boolean AVAILABLE;
  private static final String LOADED_FROM;
  private static final String FAILURE;

  static {
    String from = null;
    String failure = null;
    if (Boolean.getBoolean(DISABLE_PROPERTY)) {
      failure = "disabled by -D" + DISABLE_PROPERTY + "=true";
    } else {
      String resource = "native/" + platform() + "/lib" + LIBRARY + ".so";
      URL url = IsalNative.class.getClassLoader().getResource(resource);
      String jarFailure = null;
      if (url != null) {
        try {
          File f = extract(url);
          System.load(f.getAbsolutePath());
          from = url + (url.getProtocol().equals("file") ? "" : " (extracted to " + f + ")");
        } catch (IOException | UnsatisfiedLinkError e) {
          jarFailure = url + ": " + e.getMessage();
        }
      } else {
        jarFailure = "no " + resource + " in the jar (built without libisal-dev headers, or another platform)";
      }
      if (from == null) {
        try {
          System.loadLibrary(LIBRARY);
          from = "java.library.path (" + System.getProperty("java.library.path") + ")";
        } catch (UnsatisfiedLinkError e) {
          failure = jarFailure + "; and lib" + LIBRARY + ".so is not on java.library.path";
        }
      }
    }
    AVAILABLE = from != null;
    LOADED_FROM = from;
    FAILURE = failure;
  }

  private IsalNative() {
  }

  static boolean isAvailable() {
    return AVAILABLE;
  }

  /** Where the library was loaded from, or null. */
  static String loadedFrom() {
    return LOADED_FROM;
  }

  /** Why the library is not loaded, or null. */
  static String failure() {
    return FAILURE;
  }

  /** {@code linux-amd64}, {@code linux-aarch64}, ... */
  static String platform() {
    String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
    if (os.startsWith("linux")) {
      os = "linux";
    } else if (os.startsWith("mac")) {
      os = "darwin";
    } else {
      os = os.replaceAll("[^a-z0-9]+", "");
    }
    String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
    if (arch.equals("x86_64")) {
      arch = "amd64";
    }
    return os + "-" + arch;
  }

  /**
   * The library as a file: the jar's copy is written once per user and content to
   * {@code <java.io.tmpdir>/pocache-native-<user>/lib<name>-<sha256 prefix>.so} (a
   * directory only its owner may write) and reused by every later JVM, so a killed
   * JVM leaves nothing new behind. If that directory cannot be used safely the copy
   * goes to a temporary file deleted at exit.
   */
  private static File extract(URL url) throws IOException {
    if (url.getProtocol().equals("file")) {
      try {
        return new File(url.toURI());
      } catch (java.net.URISyntaxException e) {
        throw new IOException(e);
      }
    }
    byte[] bytes;
    try (InputStream in = url.openStream()) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(256 << 10);
      byte[] buf = new byte[64 << 10];
      for (int n; (n = in.read(buf)) > 0; ) {
        out.write(buf, 0, n);
      }
      bytes = out.toByteArray();
    }
    String name = "lib" + LIBRARY + "-" + sha256Prefix(bytes) + ".so";
    java.nio.file.Path dir = privateDir();
    if (dir != null) {
      java.nio.file.Path target = dir.resolve(name);
      if (Files.isRegularFile(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)
          && java.util.Arrays.equals(bytes, Files.readAllBytes(target))) {
        return target.toFile();
      }
      java.nio.file.Path tmp = Files.createTempFile(dir, name, ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
      return target.toFile();
    }
    File f = File.createTempFile("lib" + LIBRARY + "-", ".so");
    f.deleteOnExit();
    Files.write(f.toPath(), bytes);
    return f;
  }

  /**
   * {@code <java.io.tmpdir>/pocache-native-<user>}, created owner-only; null if it
   * exists as something else (a link, another owner's, writable by others).
   */
  private static java.nio.file.Path privateDir() {
    try {
      String user = System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9._-]", "_");
      java.nio.file.Path dir = java.nio.file.Paths.get(System.getProperty("java.io.tmpdir"), "pocache-native-" + user);
      boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
      if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        try {
          if (posix) {
            Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
          } else {
            Files.createDirectory(dir);
          }
        } catch (java.nio.file.FileAlreadyExistsException raced) {
          // another JVM made it; checked below
        }
      }
      if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
      if (posix) {
        java.nio.file.attribute.PosixFileAttributes a = Files.readAttributes(dir,
            java.nio.file.attribute.PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        java.util.Set<java.nio.file.attribute.PosixFilePermission> p = a.permissions();
        boolean othersWrite = p.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
            || p.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
        String me = System.getProperty("user.name");
        if (othersWrite || me == null || !a.owner().getName().equals(me)) {
          return null;
        }
      }
      return dir;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String sha256Prefix(byte[] bytes) {
    try {
      byte[] h = java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        b.append(String.format("%02x", h[i] & 0xff));
      }
      return b.toString();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JRE has SHA-256
    }
  }

  /** ec_init_tables: tables (direct, 32 * k * rows bytes) from a rows x k coefficient matrix. */
  static native void initTables(int k, int rows, byte[] coefficients, ByteBuffer tables);

  /** ec_encode_data: out[r] = sum_c M[r][c] * in[c]. Bases are byte[] or direct ByteBuffers. */
  static native void encode(int len, int k, int rows, ByteBuffer tables, Object[] inBases, int[] inOffsets,
      Object[] outBases, int[] outOffsets);

  /** ec_encode_data_update: out[r] ^= M[r][column] * in. */
  static native void update(int len, int k, int rows, int column, ByteBuffer tables, Object inBase,
      int inOffset, Object[] outBases, int[] outOffsets);

  /**
   * The SHA-256 compression function over {@code blocks} whole 64-byte blocks of
   * {@code data} from {@code offset}, updating the eight working words in {@code state}:
   * with the processor's SHA extensions when it has them, unless {@code plainC}.
   */
  static native void sha256Blocks(int[] state, byte[] data, int offset, int blocks, boolean plainC);

  /** Whether {@link #sha256Blocks} uses the processor's SHA extensions. */
  static native boolean sha256Accelerated();
}
