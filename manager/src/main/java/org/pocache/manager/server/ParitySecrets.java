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
package org.pocache.manager.server;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParitySeal;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ProtoTranslation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Manager's parity secrets and the protection they serve. Secrets come from
 * {@code dfs.pocache.parity.secret.file} (re-read when it changes, so a secret can be
 * rotated without a restart) or from {@code dfs.pocache.parity.secret} through
 * {@link Configuration#getPassword} (a credential provider); with neither, the Manager
 * makes one at start, and parity sealed before a restart is dropped. Each secret has an
 * id stored in every value it seals; the last one listed seals new parity.
 *
 * <p>Thread-safe: the secrets are replaced as a whole.
 */
final class ParitySecrets {
  private static final Logger LOG = LoggerFactory.getLogger(ParitySecrets.class);

  private final ParityProtection protection;
  private final File file;
  private long fileStamp;
  /** The secrets by id and the id that seals new parity, replaced together. */
  private volatile Keys keys;

  private static final class Keys {
    final Map<Integer, byte[]> secrets;
    final int current;

    Keys(Map<Integer, byte[]> secrets, int current) {
      this.secrets = secrets;
      this.current = current;
    }
  }

  private ParitySecrets(ParityProtection protection, File file) {
    this.protection = protection;
    this.file = file;
  }

  /**
   * @throws IllegalArgumentException naming the key whose value is bad, or the
   *     secret file that cannot be read
   */
  static ParitySecrets from(Configuration conf) {
    String p = conf.getTrimmed(PoCacheConfigKeys.PARITY_PROTECTION_KEY, PoCacheConfigKeys.PARITY_PROTECTION_DEFAULT);
    ParityProtection protection = p.isEmpty()
        ? ("kerberos".equalsIgnoreCase(conf.getTrimmed("hadoop.security.authentication", "simple"))
            ? ParityProtection.PRIVACY : ParityProtection.INTEGRITY)
        : ParityProtection.parse(PoCacheConfigKeys.PARITY_PROTECTION_KEY, p);
    String path = conf.getTrimmed(PoCacheConfigKeys.PARITY_SECRET_FILE_KEY,
        PoCacheConfigKeys.PARITY_SECRET_FILE_DEFAULT);
    ParitySecrets s = new ParitySecrets(protection, path.isEmpty() ? null : new File(path));
    if (protection == ParityProtection.NONE) {
      s.install(Collections.singletonMap(0, new byte[0]), 0);
      return s;
    }
    if (s.file != null) {
      s.reload(true);
      return s;
    }
    char[] fromProvider;
    try {
      fromProvider = conf.getPassword(PoCacheConfigKeys.PARITY_SECRET_KEY);
    } catch (IOException e) {
      throw new IllegalArgumentException(PoCacheConfigKeys.PARITY_SECRET_KEY + " cannot be read from the credential"
          + " providers: " + e.getMessage(), e);
    }
    if (fromProvider != null && fromProvider.length > 0) {
      s.parseAndInstall(new String(fromProvider).split(","), PoCacheConfigKeys.PARITY_SECRET_KEY);
      return s;
    }
    byte[] made = new byte[ParitySeal.KEY_BYTES];
    SecureRandom r = new SecureRandom();
    r.nextBytes(made);
    int id = r.nextInt(Integer.MAX_VALUE);
    s.install(Collections.singletonMap(id, made), id);
    LOG.info("POCache parity protection is {} under a secret made at start (set {} to keep parity across"
        + " Manager restarts)", protection, PoCacheConfigKeys.PARITY_SECRET_FILE_KEY);
    return s;
  }

  ParityProtection protection() {
    return protection;
  }

  /** The id of the secret that seals new parity. */
  int currentKeyId() {
    return keys.current;
  }

  /** Whether parity sealed as {@code d} says can still be opened and is sealed as configured now. */
  boolean canOpen(ParityDescriptor d) {
    return d.getProtection() == protection
        && (protection == ParityProtection.NONE || keys.secrets.containsKey(d.getSealKeyId()));
  }

  /**
   * {@code d} with the file key of its parity added: what a caller the NameNode has
   * allowed to read (or write) the file receives. Unchanged under protection none.
   *
   * @throws IllegalStateException if the secret of its key id is gone (check {@link #canOpen} first)
   */
  ParityDescriptor withKey(ParityDescriptor d) {
    if (protection == ParityProtection.NONE) {
      return d;
    }
    byte[] secret = keys.secrets.get(d.getSealKeyId());
    if (secret == null) {
      throw new IllegalStateException("no parity secret with id " + d.getSealKeyId());
    }
    return d.toBuilder().setSealKey(ParitySeal.deriveFileKey(secret, d.getFileId(), d.getGeneration())).build();
  }

  private static final int INDEX_MAGIC = 0x50495831; // "PIX1"
  /** magic, key id, generation, stripes, substripes per stripe, m, nonce. */
  private static final int INDEX_HEADER = 4 + 4 + 8 + 4 + 4 + 4 + 12;

  /**
   * An index entry as stored in Redis: under protection, encrypted and authenticated
   * (AES-GCM) under a key derived from the current secret, so Redis neither lists
   * cached paths nor can change what a rebuilt index trusts (an entry's protection,
   * key id or value digests). In front, in clear but authenticated, what it takes to
   * delete the file's keys ({@link IndexHeader}) once the entry no longer opens.
   */
  byte[] sealIndexEntry(long fileId, ParityDescriptor d) {
    byte[] entry = ProtoTranslation.encode(d);
    if (protection == ParityProtection.NONE) {
      return entry;
    }
    Keys k = keys;
    java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(INDEX_HEADER);
    h.putInt(INDEX_MAGIC).putInt(k.current).putLong(d.getGeneration()).putInt(d.getStripes())
        .putInt(d.getSubstripesPerStripe()).putInt(d.getM());
    byte[] nonce = new byte[12];
    NONCES.nextBytes(nonce);
    h.put(nonce);
    try {
      javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
      c.init(javax.crypto.Cipher.ENCRYPT_MODE, indexKey(k.secrets.get(k.current)),
          new javax.crypto.spec.GCMParameterSpec(128, nonce));
      c.updateAAD(java.nio.ByteBuffer.allocate(8).putLong(fileId).array());
      c.updateAAD(h.array(), 0, INDEX_HEADER - 12);
      byte[] sealed = c.doFinal(entry);
      return java.nio.ByteBuffer.allocate(INDEX_HEADER + sealed.length).put(h.array()).put(sealed).array();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("sealing an index entry failed", e);
    }
  }

  /** The clear part of a sealed index entry: enough to delete the keys it names. */
  static final class IndexHeader {
    final long generation;
    final int stripes;
    final int substripesPerStripe;
    final int m;

    private IndexHeader(java.nio.ByteBuffer b) {
      generation = b.getLong(8);
      stripes = b.getInt(16);
      substripesPerStripe = b.getInt(20);
      m = b.getInt(24);
    }
  }

  /** The clear header of a sealed entry, or null if it has none that makes sense. */
  static IndexHeader indexHeader(byte[] stored) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(stored);
    if (stored.length < INDEX_HEADER || b.getInt(0) != INDEX_MAGIC) {
      return null;
    }
    IndexHeader h = new IndexHeader(b);
    return h.generation >= 0 && h.stripes > 0 && h.substripesPerStripe > 0 && h.m > 0 && h.m <= 255
        && (long) h.stripes * h.substripesPerStripe * h.m <= 1 << 24 ? h : null;
  }

  /** The entry {@link #sealIndexEntry} stored, or null if it does not open (forged, or its secret is gone). */
  byte[] openIndexEntry(long fileId, byte[] stored) {
    if (protection == ParityProtection.NONE) {
      return stored;
    }
    if (indexHeader(stored) == null || stored.length < INDEX_HEADER + 16) {
      return null;
    }
    byte[] secret = keys.secrets.get(java.nio.ByteBuffer.wrap(stored).getInt(4));
    if (secret == null) {
      return null;
    }
    try {
      javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
      c.init(javax.crypto.Cipher.DECRYPT_MODE, indexKey(secret),
          new javax.crypto.spec.GCMParameterSpec(128, stored, INDEX_HEADER - 12, 12));
      c.updateAAD(java.nio.ByteBuffer.allocate(8).putLong(fileId).array());
      c.updateAAD(stored, 0, INDEX_HEADER - 12);
      return c.doFinal(stored, INDEX_HEADER, stored.length - INDEX_HEADER);
    } catch (javax.crypto.AEADBadTagException e) {
      return null;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("opening an index entry failed", e);
    }
  }

  private static javax.crypto.spec.SecretKeySpec indexKey(byte[] secret) {
    // Derived like a file key, for a file id no inode has (HDFS inode ids are positive).
    return new javax.crypto.spec.SecretKeySpec(ParitySeal.deriveFileKey(secret, -1, -1), "AES");
  }

  private static final SecureRandom NONCES = new SecureRandom();

  /**
   * Re-reads the secret file if it changed. A file that became unreadable or bad keeps
   * the secrets in use and is logged.
   *
   * @return whether the secrets changed
   */
  boolean reloadIfChanged() {
    if (file == null) {
      return false;
    }
    long stamp = file.lastModified() ^ file.length();
    if (stamp == fileStamp) {
      return false;
    }
    try {
      reload(false);
      return true;
    } catch (IllegalArgumentException e) {
      fileStamp = stamp;
      LOG.warn("POCache keeps its parity secrets: {}", e.getMessage());
      return false;
    }
  }

  private void reload(boolean first) {
    List<String> lines;
    try {
      fileStamp = file.lastModified() ^ file.length();
      lines = Files.readAllLines(file.toPath(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException(PoCacheConfigKeys.PARITY_SECRET_FILE_KEY + " = " + file + " cannot be read: "
          + e, e);
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file.toPath());
      if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.GROUP_READ)) {
        LOG.warn("POCache parity secret file {} can be read by other users; make it readable by its owner only"
            + " (chmod 400)", file);
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not a POSIX file system: nothing to check
    }
    parseAndInstall(lines.toArray(new String[0]), PoCacheConfigKeys.PARITY_SECRET_FILE_KEY + " = " + file);
    if (!first) {
      LOG.info("POCache parity secrets re-read from {}: {} secrets, new parity sealed under id {}", file,
          keys.secrets.size(), keys.current);
    }
  }

  private void parseAndInstall(String[] entries, String where) {
    Map<Integer, byte[]> parsed = new LinkedHashMap<>();
    int last = -1;
    for (String raw : entries) {
      String line = raw.trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      int id;
      byte[] secret;
      try {
        id = Integer.parseInt(line.substring(0, Math.max(0, colon)).trim());
        secret = Base64.getDecoder().decode(line.substring(colon + 1).trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": each secret must read <id>:<base64 of at least "
            + ParitySeal.KEY_BYTES + " random bytes> (e.g. 1:$(head -c 32 /dev/urandom | base64))", e);
      }
      if (id < 0) {
        throw new IllegalArgumentException(where + ": secret id " + id + " must be >= 0");
      }
      if (secret.length < ParitySeal.KEY_BYTES) {
        throw new IllegalArgumentException(where + ": secret " + id + " has " + secret.length + " bytes, at least "
            + ParitySeal.KEY_BYTES + " are needed");
      }
      if (parsed.put(id, secret) != null) {
        throw new IllegalArgumentException(where + ": secret id " + id + " is listed twice");
      }
      last = id;
    }
    if (parsed.isEmpty()) {
      throw new IllegalArgumentException(where + " holds no secret (one <id>:<base64> per line)");
    }
    install(parsed, last);
  }

  private void install(Map<Integer, byte[]> s, int currentId) {
    keys = new Keys(Collections.unmodifiableMap(new LinkedHashMap<>(s)), currentId);
  }
}
