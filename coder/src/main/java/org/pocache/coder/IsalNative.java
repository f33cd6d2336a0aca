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
 * ({@code native/<os>-<arch>/libpocache_isal.so}), extracted to java.io.tmpdir;
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

  private static File extract(URL url) throws IOException {
    if (url.getProtocol().equals("file")) {
      try {
        return new File(url.toURI());
      } catch (java.net.URISyntaxException e) {
        throw new IOException(e);
      }
    }
    File f = File.createTempFile("lib" + LIBRARY + "-", ".so");
    f.deleteOnExit();
    try (InputStream in = url.openStream()) {
      Files.copy(in, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
    }
    return f;
  }

  /** ec_init_tables: tables (direct, 32 * k * rows bytes) from a rows x k coefficient matrix. */
  static native void initTables(int k, int rows, byte[] coefficients, ByteBuffer tables);

  /** ec_encode_data: out[r] = sum_c M[r][c] * in[c]. Bases are byte[] or direct ByteBuffers. */
  static native void encode(int len, int k, int rows, ByteBuffer tables, Object[] inBases, int[] inOffsets,
      Object[] outBases, int[] outOffsets);

  /** ec_encode_data_update: out[r] ^= M[r][column] * in. */
  static native void update(int len, int k, int rows, int column, ByteBuffer tables, Object inBase,
      int inOffset, Object[] outBases, int[] outOffsets);
}
