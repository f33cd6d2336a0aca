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

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately tiny RESP2 client for fixtures: readiness probes and test setup
 * (PING, AUTH, SET, GET, SETRANGE, INFO, SHUTDOWN). Production code talks to Redis
 * through the cache-redis module, never through this class.
 */
public final class RespClient implements Closeable {
  /** An error reply ({@code -ERR ...}) from the server. */
  public static final class RedisErrorReply extends IOException {
    private static final long serialVersionUID = 1L;

    RedisErrorReply(String message) {
      super(message);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public RespClient(String host, int port, int timeoutMillis) throws IOException {
    socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      socket.setTcpNoDelay(true);
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * Sends one command and returns its reply: a String for simple strings, a byte[]
   * for bulk strings, a Long for integers, a List for arrays, null for a nil reply.
   *
   * @throws RedisErrorReply if the server answered with an error
   */
  public Object call(Object... args) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    buf.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (Object a : args) {
      byte[] b = a instanceof byte[] ? (byte[]) a : String.valueOf(a).getBytes(StandardCharsets.UTF_8);
      buf.write(('$' + Integer.toString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      buf.write(b);
      buf.write('\r');
      buf.write('\n');
    }
    buf.writeTo(out);
    out.flush();
    return readReply();
  }

  /** {@link #call} for commands whose reply is a bulk string, decoded as UTF-8. */
  public String callString(Object... args) throws IOException {
    Object r = call(args);
    if (r == null) {
      return null;
    }
    return r instanceof byte[] ? new String((byte[]) r, StandardCharsets.UTF_8) : r.toString();
  }

  private Object readReply() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("connection closed by redis-server");
    }
    String line = readLine();
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new RedisErrorReply(line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int len = Integer.parseInt(line);
        if (len < 0) {
          return null;
        }
        byte[] b = readExactly(len + 2);
        byte[] v = new byte[len];
        System.arraycopy(b, 0, v, 0, len);
        return v;
      }
      case '*': {
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          items.add(readReply());
        }
        return items;
      }
      default:
        throw new IOException("not a RESP reply: type byte " + type);
    }
  }

  private String readLine() throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) != '\r') {
      if (c < 0) {
        throw new EOFException("connection closed by redis-server");
      }
      sb.append((char) c);
    }
    if (in.read() != '\n') {
      throw new IOException("malformed RESP line: " + sb);
    }
    return sb.toString();
  }

  private byte[] readExactly(int n) throws IOException {
    byte[] b = new byte[n];
    int off = 0;
    while (off < n) {
      int r = in.read(b, off, n - off);
      if (r < 0) {
        throw new EOFException("connection closed by redis-server");
      }
      off += r;
    }
    return b;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
