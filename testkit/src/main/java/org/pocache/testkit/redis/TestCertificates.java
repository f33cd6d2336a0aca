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
package org.pocache.testkit.redis;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 made at test time with the JDK's
 * keytool: the PEM certificate and PKCS#8 key redis-server wants, and a PKCS12
 * trust store holding the certificate for the Java client. No openssl needed.
 */
public final class TestCertificates {
  public final File certPem;
  public final File keyPem;
  public final File truststore;
  public final String truststorePassword = "pocache-test";

  public TestCertificates(File dir) throws IOException {
    Files.createDirectories(dir.toPath());
    File ks = new File(dir, "server.p12");
    Files.deleteIfExists(ks.toPath());
    String keytool = System.getProperty("java.home") + File.separator + "bin" + File.separator + "keytool";
    run(keytool, "-genkeypair", "-alias", "redis", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", ks.getPath(),
        "-storepass", truststorePassword, "-keypass", truststorePassword);
    try (InputStream in = new FileInputStream(ks)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, truststorePassword.toCharArray());
      Key key = store.getKey("redis", truststorePassword.toCharArray());
      Certificate cert = store.getCertificate("redis");
      certPem = new File(dir, "cert.pem");
      keyPem = new File(dir, "key.pem");
      write(certPem, "CERTIFICATE", cert.getEncoded());
      write(keyPem, "PRIVATE KEY", key.getEncoded());
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("redis-ca", cert);
      truststore = new File(dir, "truststore.p12");
      try (java.io.OutputStream out = Files.newOutputStream(truststore.toPath())) {
        trust.store(out, truststorePassword.toCharArray());
      }
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException("cannot make test certificates", e);
    }
  }

  private static void write(File f, String type, byte[] der) throws IOException {
    String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    Files.write(f.toPath(), ("-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n")
        .getBytes(StandardCharsets.US_ASCII));
  }

  private static void run(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      byte[] out = readAll(p.getInputStream());
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("keytool failed: " + new String(out, StandardCharsets.UTF_8));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    int n;
    while ((n = in.read(buf)) > 0) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }
}
