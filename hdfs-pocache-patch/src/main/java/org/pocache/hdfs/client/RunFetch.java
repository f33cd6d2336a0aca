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
package org.pocache.hdfs.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.pocache.cache.ParityKey;
import org.pocache.cache.ParityProtection;
import org.pocache.cache.ParityValue;
import org.pocache.coder.layout.StripeLayout;
import org.pocache.hdfs.client.buffer.Leases;
import org.pocache.hdfs.client.read.FetchEngine;
import org.pocache.hdfs.client.read.FetchEvent;
import org.pocache.hdfs.client.read.FetchEvents;
import org.pocache.hdfs.client.read.FetchIo;
import org.pocache.hdfs.client.read.FetchSettings;
import org.pocache.hdfs.client.read.Piece;
import org.pocache.hdfs.client.read.PieceSources;
import org.pocache.manager.protocol.ParityDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run of {@code count} consecutive substripes in flight: one read per data piece
 * (none for a slow source left to parity) and one GET of all their parity; what to
 * read, when to ask for the parity and when to decode is its {@link FetchEngine}'s to
 * decide, and this class carries it out. Piece i's array holds substripe j0 + c at
 * offset c * S. A data read copies its piece into the caller's buffer as soon as it
 * arrives, so only pieces decoded are copied on the caller's time; pieces arriving
 * together copy at once, each to its own range. Closing the fetch shuts its
 * {@link CallerBufferGuard}, so after it no read touches the caller's buffer again.
 */
final class RunFetch implements FetchIo, PieceSources {
  /** Fetch traces go to ProactiveReader's log, at DEBUG. */
  private static final Logger LOG = LoggerFactory.getLogger(ProactiveReader.class);

  private final ReadContext ctx;
  private final ParityDescriptor d;
  private final StripeLayout layout;
  /** Length of every pooled piece array: a substripe's pieces never exceed a subblock. */
  private final int pieceBytes;
  private final FetchSettings settings;
  /** Parity pieces of each substripe asked for. */
  private final int asked;
  final long s;
  final int j0;
  final int count;
  /** Parity length of each substripe of the run. */
  final int[] len;
  /** Stored bytes of piece i in substripe j0 + c: stored[c][i]. */
  final int[][] stored;
  final Leases leases;
  final Piece[] pieces;
  /** What the reads and the GET report, for the engine. */
  final LinkedBlockingQueue<FetchEvent> events = new LinkedBlockingQueue<>();
  final CallerBufferGuard guard = new CallerBufferGuard();
  final LatenessJudge judge;
  final FetchEngine engine;
  /** Whether reads report their run's first row (direct reads of several rows). */
  final boolean firstRows;
  /** When the parity GET ended, 0 before; for the trace. */
  volatile long parityAt;
  /** The final decode's span; for the trace. */
  long decodeFrom;
  long decodeTo;
  /** Decodes the missing pieces, ahead as rows come and at the end; holds the parity. */
  final RunDecoder decoder;
  /** Where parity and decode problems are told (the read's outcome), while the fetch completes. */
  ProactiveReader.Outcome outcome;
  /** The caller's buffer: buf[off] is file offset pos; written only inside {@link #guard}. */
  private final long pos;
  private final byte[] buf;
  private final int off;

  /**
   * Starts the fetch of substripes {@code j0} to {@code j0 + count - 1} of stripe
   * {@code s} into {@code buf}, whose {@code buf[off]} is file offset {@code pos}.
   *
   * @param asked parity pieces of each substripe to ask for ({@link ProactiveReader#askedParity})
   */
  RunFetch(ReadContext ctx, FetchSettings settings, int asked, long s, int j0, int count, long pos, byte[] buf,
      int off) {
    this.ctx = ctx;
    this.d = ctx.descriptor;
    this.layout = ctx.layout;
    this.pieceBytes = ctx.layout.subblockSize();
    this.settings = settings;
    this.asked = asked;
    this.leases = new Leases(ctx.buffers);
    this.s = s;
    this.j0 = j0;
    this.count = count;
    this.pos = pos;
    this.buf = buf;
    this.off = off;
    int k = d.getK();
    int m = asked;
    len = new int[count];
    stored = new int[count][k];
    int[] total = new int[k];
    for (int c = 0; c < count; c++) {
      len[c] = layout.parityLength(s, j0 + c);
      for (int i = 0; i < k; i++) {
        stored[c][i] = layout.storedLength(s, j0 + c, i);
        total[i] += stored[c][i];
      }
    }
    firstRows = ctx.direct != null && count > 1;
    pieces = new Piece[k];
    for (int i = 0; i < k; i++) {
      if (total[i] > 0) {
        byte[] b = leases.scratch(count * pieceBytes);
        zeroPastStored(b, i); // the virtual zeros of a short piece
        pieces[i] = new Piece(i, total[i], b, Piece.State.SKIPPED, ctx.clock);
      } else {
        // Nothing stored (a short file's stripe): the decoder reads zeros, never writes them.
        pieces[i] = new Piece(i, 0, Zeros.of(count * pieceBytes), Piece.State.VIRTUAL_ZERO, ctx.clock);
      }
    }
    FetchEvents queue = new FetchEvents() {
      @Override
      public FetchEvent take() throws InterruptedException {
        return events.take();
      }

      @Override
      public FetchEvent poll(long nanos) throws InterruptedException {
        return nanos <= 0 ? events.poll() : events.poll(nanos, TimeUnit.NANOSECONDS);
      }
    };
    // Arrays are lent to a read or the GET only when the engine starts it.
    decoder = new RunDecoder(d, asked, count, pieceBytes, len, stored, pieces, leases, guard, ctx.parity,
        this::copyOut, ctx.clock);
    engine = new FetchEngine(pieces, m, count, firstRows, settings, ctx.clock, this, this, queue, LOG.isDebugEnabled());
    judge = new LatenessJudge(ctx.sources, k, i -> ctx.locations.of(s, i), engine.born(),
        settings.minDeadlineNanos() / 2);
    engine.start();
  }

  // PieceSources: the DataNodes of piece i, as SlowSources knows them.

  @Override
  public boolean judging() {
    return ctx.sources.judging();
  }

  @Override
  public boolean backlogged(int i) {
    return ctx.sources.backlogged(ctx.locations.of(s, i));
  }

  @Override
  public boolean listed(int i) {
    return ctx.sources.listedAll(ctx.locations.of(s, i));
  }

  @Override
  public boolean lateByOwnReads(int i) {
    return ctx.sources.lateByOwnReads(ctx.locations.of(s, i));
  }

  @Override
  public boolean skipAdvised(int i) {
    return ctx.sources.skip(ctx.locations.of(s, i));
  }

  @Override
  public boolean suspect(int i) {
    return ctx.sources.suspect(ctx.locations.of(s, i));
  }

  @Override
  public void onTime(int i) {
    judge.onTime(i);
  }

  @Override
  public void decoded(int i, long peersAt) {
    judge.decoded(i, peersAt);
  }

  // FetchIo: the engine's decisions carried out.

  @Override
  public void requestParity(boolean openNow) {
    for (byte[] b : decoder.parityBytes) {
      leases.lend(b);
    }
    int m = asked;
    ctx.pool.execute(() -> {
      FetchEvent end = FetchEvent.PARITY_IN;
      try {
        List<ParityKey> keys = new ArrayList<>(count * m);
        for (int c = 0; c < count; c++) {
          for (int p = 0; p < m; p++) {
            keys.add(ctx.parity.store().key(d.getKeyPrefix(), ctx.seal, d.getFileId(), d.getGeneration(), (int) s,
                j0 + c, p));
          }
        }
        // Protected values are opened (digest, decryption) only if a decode needs them.
        ParityValue[] values = ctx.parity.store().getAllUnopened(keys);
        boolean opened = false;
        if (ctx.seal.protection() == ParityProtection.NONE) {
          decoder.unpack(values); // here, while the data is still on its way, not on the caller's time
          opened = true;
        } else if (openNow) {
          try {
            for (ParityValue v : values) {
              if (v != null) {
                v.open();
              }
            }
            decoder.unpack(values);
            opened = true;
          } catch (org.pocache.cache.CorruptParityException e) {
            // the decode meets it again and waits for the data
          }
        }
        decoder.parityIn(values, opened);
      } catch (Throwable t) {
        end = FetchEvent.parityFailed(t);
      } finally {
        parityAt = ctx.clock.nanoTime();
        for (byte[] b : decoder.parityBytes) {
          leases.written(b);
        }
      }
      events.offer(end);
    });
  }

  @Override
  public void parityFailed(Throwable c) {
    outcome.parityCorrupt |= c instanceof org.pocache.cache.CorruptParityException;
    outcome.cacheError |= !(c instanceof org.pocache.cache.CorruptParityException);
  }

  @Override
  public long expectedDecodeNanos(long bytes) {
    return ProactiveReader.DecodeCost.expectedNanos(bytes);
  }

  private void zeroPastStored(byte[] b, int i) {
    for (int c = 0; c < count; c++) {
      if (stored[c][i] < len[c]) {
        java.util.Arrays.fill(b, c * pieceBytes + stored[c][i], c * pieceBytes + len[c], (byte) 0);
      }
    }
  }

  @Override
  public void startRead(Piece p) {
    int i = p.index;
    long at = layout.fileOffset(s, j0, i, 0);
    byte[] b = p.array();
    leases.lend(b);
    ctx.pool.execute(() -> {
      FetchEvent end;
      try {
        readPiece(p, at, b);
        end = FetchEvent.arrived(i);
      } catch (Throwable t) {
        end = FetchEvent.failed(i, t);
      }
      events.offer(end);
    });
  }

  /** On a pool thread: reads piece p into b, passing its rows into the caller's buffer as they come. */
  private void readPiece(Piece p, long at, byte[] b) throws IOException {
    int i = p.index;
    int n = p.bytes;
    boolean ok = false;
    List<String> where = ctx.locations.of(s, i); // its DataNodes, looked up once per read
    Runnable inFlight = ctx.sources.reading(where, n);
    // Bytes of b already in the caller's buffer: a direct read passes them on as they come,
    // so that only its last bytes are copied after it ends.
    int[] streamed = {0};
    try {
      long t0 = ctx.clock.nanoTime();
      try {
        if (ctx.direct != null) {
          ctx.direct.read(s, j0, i, b, n, new DirectBlockReads.Watch() {
            @Override
            public void arrived(int from, int to) {
              if (from == streamed[0] && guard.beginCopy()) {
                try {
                  copyOut(i, b, from, to);
                  streamed[0] = to;
                } finally {
                  guard.endCopy();
                }
              }
              p.bytesIn(to);
              // Every row but the last is whole: rows below to / S are in. Told only once the
              // parity is in: the fetch looks at the rows in when the parity arrives anyway.
              if (p.rowsIn(Math.min(count - 1, to / pieceBytes)) && decoder.parityIn()) {
                events.offer(FetchEvent.ROWS_IN);
              }
            }

            @Override
            public void firstCell() {
              if (firstRows && p.firstRowAt(ctx.clock.nanoTime())) {
                events.offer(FetchEvent.FIRST_ROW);
              }
            }

            @Override
            public boolean unwanted() {
              return p.unwanted();
            }

            @Override
            public boolean rescuable() {
              return true; // a proactive fetch's stripe is cached: a failed piece asks for the parity
            }
          });
        } else {
          ctx.data.readFully(at, b, 0, n);
        }
      } catch (DirectBlockReads.Stopped e) {
        // Counted as if its bytes had all arrived now, as a long read still in flight is
        // in a read report: at least as fast as the DataNode really is.
        ctx.sources.observed(where, n, ctx.clock.nanoTime() - t0);
        throw e;
      } finally {
        if (inFlight != null) {
          inFlight.run();
        }
      }
      p.finishedAt(ctx.clock.nanoTime());
      ok = true;
      if (guard.beginCopy()) {
        boolean whole = false;
        try {
          copyOut(i, b, streamed[0], n); // outside any monitor: pieces arriving together copy at once
          whole = true;
        } finally {
          guard.endCopy(p, whole);
        }
      }
      ctx.sources.observed(where, n, p.arrivedAt() - t0);
    } finally {
      leases.written(b);
      judge.ended(i, ok, p.arrivedAt());
    }
  }

  /**
   * Copies bytes {@code [lo, hi)} of piece i's array (row c at {@code c * pieceBytes})
   * into the caller's buffer, stored bytes only; only inside the guard, or after it closed.
   */
  void copyOut(int i, byte[] from, int lo, int hi) {
    for (int c = lo / pieceBytes; c < count && c * pieceBytes < hi; c++) {
      int rowStart = c * pieceBytes;
      int a = Math.max(lo, rowStart);
      int e = Math.min(hi, rowStart + stored[c][i]);
      if (e > a) {
        long at = layout.fileOffset(s, j0 + c, i, a - rowStart);
        System.arraycopy(from, a, buf, off + (int) (at - pos), e - a);
      }
    }
  }

  /** No read copies into the caller's buffer after this; arrays go back as their reads end. */
  void close() {
    guard.closeAndAwait();
    leases.close();
  }

  void complete(ProactiveReader.Outcome outcome) throws IOException {
    this.outcome = outcome;
    outcome.substripes += count;
    engine.complete();
    guard.closeAndAwait(); // from here on the caller's buffer is the caller's alone
    for (Piece p : pieces) {
      if (!p.copied()) {
        // Decoded (its rows decoded ahead are in already), or virtual zeros (nothing stored).
        int from = decoder.aheadUsed() && p.state() == Piece.State.DECODED ? decoder.aheadCopiedRows() * pieceBytes : 0;
        copyOut(p.index, p.array(), from, count * pieceBytes);
      }
    }
    int m = asked;
    outcome.parityFetches += engine.parityRequested() ? 1 : 0;
    outcome.parityValues += engine.parityRequested() ? count * m : 0;
    if (LOG.isDebugEnabled()) {
      LOG.debug(trace());
    }
    engine.finish();
  }

  /**
   * One line on this fetch, milliseconds since it started: each piece's DataNode,
   * whether it was left to parity at the start, when its read started and its bytes
   * arrived (or its state), then the parity GET, when decoding became possible, the
   * decode, and the end.
   */
  private String trace() {
    StringBuilder b = new StringBuilder("fetch stripe ").append(s).append(" substripes ").append(j0);
    if (count > 1) {
      b.append('-').append(j0 + count - 1);
    }
    for (Piece p : pieces) {
      b.append(" | d").append(p.index).append(' ').append(ctx.locations.of(s, p.index));
      if (p.skippedFor() != null) {
        b.append(" skipped(").append(p.skippedFor()).append(')');
      }
      if (p.started()) {
        b.append(" read@").append(engine.ms(p.startedAt()));
      }
      if (p.firstRowAt() != 0) {
        b.append(" row1@").append(engine.ms(p.firstRowAt()));
      }
      if (p.arrivedAt() != 0) {
        b.append(" arrived@").append(engine.ms(p.arrivedAt()));
      }
      b.append(' ').append(p.state());
    }
    if (engine.parityDeferred()) {
      b.append(" | parity ").append(engine.parityRequested() ? "asked@" + engine.ms(engine.parityRequestedAt())
          : "never asked");
    }
    b.append(" | parity@").append(parityAt == 0 ? "-" : engine.ms(parityAt));
    if (engine.decodableAt() != 0) {
      b.append(" decodable@").append(engine.ms(engine.decodableAt()));
    }
    if (decoder.aheadRows() > 0) {
      b.append(" ahead ").append(decoder.aheadRows()).append(decoder.aheadUsed() ? " rows" : " rows unused");
    }
    if (decodeFrom != 0) {
      b.append(" decode@").append(engine.ms(decodeFrom)).append('-').append(engine.ms(decodeTo));
    }
    return b.append(" done@").append(engine.ms(ctx.clock.nanoTime())).append(" | taken").append(engine.taken())
        .toString();
  }

  /** Whether every parity value arrived intact (the values' own checksums were checked by the store). */
  @Override
  public boolean parityUsable() {
    ParityValue[] p = decoder.parity();
    for (int x = 0; x < p.length; x++) {
      ParityValue v = p[x];
      if (v == null) {
        outcome.parityMissing = true;
        return false;
      }
      if (v.payloadLength() != len[x / asked]) {
        outcome.parityCorrupt = true;
        return false;
      }
    }
    return true;
  }

  /** Rebuilds the missing data pieces of every substripe; false if a result does not match its stored CRC. */
  @Override
  public boolean decode() {
    decodeFrom = ctx.clock.nanoTime();
    boolean ok = decoder.decodeMissing(outcome);
    decodeTo = ctx.clock.nanoTime();
    if (ok && decoder.finalDecodeBytes() > 0) {
      // Opening protected parity is not decoding, nor are the rows decoded ahead.
      ProactiveReader.DecodeCost.measured(decoder.finalDecodeBytes(), decodeTo - decoder.codingFrom());
    }
    return ok;
  }

  @Override
  public void decodeAhead() {
    decoder.decodeAhead();
  }
}
