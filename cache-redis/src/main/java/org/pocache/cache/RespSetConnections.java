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
package org.pocache.cache;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Parity SETs over POCache's own RESP connections, for a standalone Redis without
 * TLS: the asynchronous upload path of writers and filling readers. One gathering
 * {@link SocketChannel} write per SET takes the upload thread about two thirds of the
 * CPU a Jedis SET of the same value takes ({@code pocache bench redis}, see
 * docs/benchmarks.md), and on cores shared with the HDFS write that CPU is what a
 * write pays for its parity. Everything else (GETs, batches, deletes, cluster, TLS)
 * stays on Jedis.
 *
 * <p>A connection speaks RESP2 (the protocol a new connection starts in), sends
 * {@code AUTH} when a password is configured and names itself {@code pocache}
 * like the Jedis connections. I/O is non-blocking with a {@link Selector} per
 * connection, so a Redis that stops reading or answering fails the call once no
 * byte moved for the read timeout, as a Jedis socket timeout does. A connection
 * that saw any I/O or protocol error is closed, never reused; an error reply
 * ({@code -OOM ...}) leaves it usable. At most {@code idle} connections are kept
 * between calls; more are opened while more threads SET at once.
 */
final class RespSetConnections implements Closeable {
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] GET = ascii("GET");

  private final RedisSettings settings;
  private final BlockingQueue<Connection> idle;
  private volatile boolean closed;

  RespSetConnections(RedisSettings settings, int idle) {
    if (settings.topology != RedisSettings.Topology.STANDALONE || settings.tls) {
      throw new IllegalArgumentException("own RESP connections are for a standalone Redis without TLS");
    }
    this.settings = settings;
    this.idle = new ArrayBlockingQueue<>(Math.max(1, idle));
  }

  /**
   * {@code SET key value}, the whole array as the value.
   *
   * @throws IOException if Redis cannot be reached, stalls for the read timeout,
   *     answers with an error (the message is Redis's) or breaks the protocol
   */
  void set(byte[] key, byte[] value) throws IOException {
    if (closed) {
      throw new IOException("store is closed");
    }
    Connection c = idle.poll();
    if (c == null) {
      RedisSettings.Endpoint e = settings.hosts.get(0);
      c = new Connection(new InetSocketAddress(e.host, e.port), settings); // resolved now, as Jedis does per connection
    }
    boolean reusable = false;
    try {
      c.set(key, value);
      reusable = true;
    } catch (ErrorReply e) {
      reusable = true; // Redis read the whole command and answered: the stream is in step
      throw e;
    } finally {
      if (!reusable || closed || !idle.offer(c)) {
        c.close();
      }
    }
  }

  /**
   * The values of {@code keys} (pipelined GETs), each in arrays of at most {@code piece}
   * bytes: a reply is read in pieces straight from the socket's buffer, so no array is a
   * humongous object for G1 and no value is read twice. A missing value is null.
   *
   * @throws IOException if Redis cannot be reached, stalls for the read timeout,
   *     answers with an error (the message is Redis's) or breaks the protocol
   */
  byte[][][] getPieces(List<byte[]> keys, int piece) throws IOException {
    if (closed) {
      throw new IOException("store is closed");
    }
    Connection c = idle.poll();
    if (c == null) {
      RedisSettings.Endpoint e = settings.hosts.get(0);
      c = new Connection(new InetSocketAddress(e.host, e.port), settings);
    }
    boolean reusable = false;
    try {
      byte[][][] v = c.getPieces(keys, piece);
      reusable = true;
      return v;
    } catch (ErrorReply e) {
      reusable = true; // every reply was read: the stream is in step
      throw e;
    } finally {
      if (!reusable || closed || !idle.offer(c)) {
        c.close();
      }
    }
  }

  /**
   * Opens a connection and closes it: Redis answers, and takes the password (AUTH) and
   * CLIENT SETNAME. It is not kept: a connection authenticated now would go on working
   * after the password changed.
   *
   * @throws IOException naming what failed (Redis's own words for a refused AUTH)
   */
  void check() throws IOException {
    RedisSettings.Endpoint e = settings.hosts.get(0);
    new Connection(new InetSocketAddress(e.host, e.port), settings).close();
  }

  /** Connections kept open between calls (for tests: none leak beyond the bound). */
  int idleConnections() {
    return idle.size();
  }

  @Override
  public void close() {
    closed = true;
    for (Connection c; (c = idle.poll()) != null; ) {
      c.close();
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Commands in RESP, built up to be written at once. */
  private static final class Commands {
    private ByteBuffer b = ByteBuffer.allocate(4096);

    void add(byte[]... words) {
      int need = 16;
      for (byte[] w : words) {
        need += w.length + 16;
      }
      ensure(need);
      put("*" + words.length);
      for (byte[] w : words) {
        put("$" + w.length);
        b.put(w).put(CRLF);
      }
    }

    private void put(String header) {
      b.put(ascii(header)).put(CRLF);
    }

    private void ensure(int n) {
      if (b.remaining() < n) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + n));
        b.flip();
        bigger.put(b);
        b = bigger;
      }
    }

    ByteBuffer buffer() {
      b.flip();
      return b;
    }
  }

  /** One RESP2 connection. Not thread-safe: a caller has it to itself between poll and offer. */
  private static final class Connection {
    private final SocketChannel ch;
    private final Selector selector;
    private final SelectionKey key;
    private final int timeoutMillis;
    private final ByteBuffer reply = ByteBuffer.allocate(512);
    /**
     * Replies of pipelined reads not yet parsed (read mode; direct: the channel fills it
     * without a copy). Made at the first read: a connection that only SETs never needs it.
     */
    private ByteBuffer in;

    Connection(InetSocketAddress address, RedisSettings s) throws IOException {
      this.timeoutMillis = s.readTimeoutMillis;
      SocketChannel c = SocketChannel.open();
      Selector sel = null;
      try {
        c.socket().setTcpNoDelay(true);
        c.socket().setKeepAlive(true);
        c.socket().connect(address, s.connectTimeoutMillis);
        c.configureBlocking(false);
        sel = Selector.open();
        this.key = c.register(sel, 0);
      } catch (IOException | RuntimeException e) {
        if (sel != null) {
          sel.close();
        }
        c.close();
        throw new IOException("cannot connect to Redis at " + address + ": " + e.getMessage(), e);
      }
      this.ch = c;
      this.selector = sel;
      try {
        if (!s.password.isEmpty()) {
          if (s.user.isEmpty()) {
            command(s.password.getBytes(StandardCharsets.UTF_8), "AUTH");
          } else {
            command(s.password.getBytes(StandardCharsets.UTF_8), "AUTH", s.user);
          }
        }
        command("pocache".getBytes(StandardCharsets.UTF_8), "CLIENT", "SETNAME");
      } catch (IOException e) {
        close();
        throw e;
      }
    }

    /** Sends SET and checks the reply. */
    void set(byte[] k, byte[] value) throws IOException {
      String head = "*3\r\n$3\r\nSET\r\n$" + k.length + "\r\n";
      ByteBuffer prefix = ByteBuffer.allocate(head.length() + k.length + 16 + 2);
      prefix.put(head.getBytes(StandardCharsets.US_ASCII)).put(k).put(CRLF);
      prefix.put(('$' + Integer.toString(value.length)).getBytes(StandardCharsets.US_ASCII)).put(CRLF);
      prefix.flip();
      String line = send(new ByteBuffer[] {prefix, ByteBuffer.wrap(value), ByteBuffer.wrap(CRLF)});
      if (line.startsWith("-")) {
        throw new ErrorReply(line.substring(1));
      }
      if (!line.equals("+OK")) {
        throw new IOException("unexpected reply to SET: " + line);
      }
    }

    /** As {@link RespSetConnections#getPieces}, on this connection. */
    byte[][][] getPieces(List<byte[]> keys, int piece) throws IOException {
      if (in == null) {
        in = (ByteBuffer) ByteBuffer.allocateDirect(256 << 10).flip();
      }
      Commands gets = new Commands();
      for (byte[] k : keys) {
        gets.add(GET, k);
      }
      write(gets.buffer());
      byte[][][] out = new byte[keys.size()][][];
      ErrorReply error = null;
      for (int i = 0; i < out.length; i++) {
        int type = readByte();
        String line = readLine();
        if (type == '-') {
          error = error == null ? new ErrorReply(line) : error; // the other replies are still read
          continue;
        }
        if (type != '$') {
          throw new IOException("unexpected reply from Redis to GET: " + (char) type + line);
        }
        long len = parseLong(line);
        if (len > 0) {
          out[i] = readPieces(len, piece);
        } else if (len == 0) {
          readCrlf();
        }
      }
      if (error != null) {
        throw error;
      }
      return out;
    }

    /** A bulk reply's {@code len} bytes (its header read) in arrays of at most {@code piece} bytes, and its CRLF. */
    private byte[][] readPieces(long len, int piece) throws IOException {
      long count = (len + piece - 1) / piece;
      if (count > Integer.MAX_VALUE / 2) {
        throw new IOException("Redis sent a value of " + len + " bytes");
      }
      byte[][] pieces = new byte[(int) count][];
      long left = len;
      for (int c = 0; c < pieces.length; c++) {
        byte[] b = new byte[(int) Math.min(piece, left)];
        for (int off = 0; off < b.length; ) {
          if (!in.hasRemaining()) {
            fill();
          }
          int take = Math.min(in.remaining(), b.length - off);
          in.get(b, off, take);
          off += take;
        }
        pieces[c] = b;
        left -= b.length;
      }
      readCrlf();
      return pieces;
    }

    private void readCrlf() throws IOException {
      if (readByte() != '\r' || readByte() != '\n') {
        throw new IOException("a bulk reply from Redis does not end in CRLF");
      }
    }

    /** Writes all of {@code b}. */
    private void write(ByteBuffer b) throws IOException {
      while (b.hasRemaining()) {
        if (ch.write(b) == 0) {
          await(SelectionKey.OP_WRITE, "sending");
        }
      }
    }

    private int readByte() throws IOException {
      if (!in.hasRemaining()) {
        fill();
      }
      return in.get() & 0xff;
    }

    /** The rest of a reply's first line, without its CRLF. */
    private String readLine() throws IOException {
      StringBuilder sb = new StringBuilder();
      while (true) {
        int b = readByte();
        if (b == '\r') {
          if (readByte() != '\n') {
            throw new IOException("a reply line from Redis has CR without LF");
          }
          return sb.toString();
        }
        if (sb.length() > 1024) {
          throw new IOException("a reply line from Redis longer than 1 KiB");
        }
        sb.append((char) b);
      }
    }

    private static long parseLong(String s) throws IOException {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new IOException("Redis sent '" + s + "' for a number");
      }
    }

    /** Reads more of the replies into {@link #in} (empty before, ready to read after). */
    private void fill() throws IOException {
      in.clear();
      while (true) {
        int n = ch.read(in);
        if (n < 0) {
          throw new IOException("Redis closed the connection");
        }
        if (n > 0) {
          in.flip();
          return;
        }
        await(SelectionKey.OP_READ, "waiting for replies");
      }
    }

    /** A small command whose last argument is {@code last}; expects +OK. */
    private void command(byte[] last, String... words) throws IOException {
      StringBuilder sb = new StringBuilder().append('*').append(words.length + 1).append("\r\n");
      for (String w : words) {
        byte[] b = w.getBytes(StandardCharsets.UTF_8);
        sb.append('$').append(b.length).append("\r\n").append(w).append("\r\n");
      }
      sb.append('$').append(last.length).append("\r\n");
      String line = send(new ByteBuffer[] {ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8)),
          ByteBuffer.wrap(last), ByteBuffer.wrap(CRLF)});
      if (!line.equals("+OK")) {
        // Redis's own words (WRONGPASS ..., NOAUTH ...) name the problem; the password is never echoed.
        throw new IOException("Redis refused " + words[0] + ": " + (line.startsWith("-") ? line.substring(1) : line));
      }
    }

    /** Writes the buffers, then reads one reply line (without its CRLF). */
    private String send(ByteBuffer[] out) throws IOException {
      ByteBuffer last = out[out.length - 1];
      while (last.hasRemaining()) {
        if (ch.write(out) == 0) {
          await(SelectionKey.OP_WRITE, "sending");
        }
      }
      reply.clear();
      while (true) {
        int n = ch.read(reply);
        if (n < 0) {
          throw new IOException("Redis closed the connection");
        }
        int len = reply.position();
        if (len >= 2 && reply.get(len - 2) == '\r' && reply.get(len - 1) == '\n') {
          // Simple-string and error replies are one line; SET and AUTH answer nothing else.
          return new String(reply.array(), 0, len - 2, StandardCharsets.UTF_8);
        }
        if (!reply.hasRemaining()) {
          throw new IOException("reply longer than " + reply.capacity() + " bytes");
        }
        if (n == 0) {
          await(SelectionKey.OP_READ, "waiting for the reply");
        }
      }
    }

    /** Waits until the channel is ready for {@code op}; a read timeout with no progress fails. */
    private void await(int op, String what) throws IOException {
      key.interestOps(op);
      try {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))) == 0) {
          if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while " + what);
          }
          if (System.nanoTime() - deadline >= 0) {
            throw new SocketTimeoutException("Redis did not respond for " + timeoutMillis + " ms while " + what);
          }
        }
        selector.selectedKeys().clear();
      } finally {
        key.interestOps(0);
      }
    }

    void close() {
      try {
        selector.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      try {
        ch.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  /** Redis answered with an error ({@code -OOM ...}); the connection stays usable. */
  static final class ErrorReply extends IOException {
    private static final long serialVersionUID = 1L;

    ErrorReply(String message) {
      super(message);
    }
  }
}
