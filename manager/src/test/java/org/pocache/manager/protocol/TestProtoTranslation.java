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
package org.pocache.manager.protocol;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.google.protobuf.ByteString;
import java.util.Arrays;
import org.junit.Test;
import org.pocache.cache.ParityProtection;
import org.pocache.manager.proto.PoCacheManagerProtos.CacheStateProto;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.proto.PoCacheManagerProtos.LayoutProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ParityProtectionProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReadOutcomeProto;

/** The domain types survive the wire and the Manager's index unchanged, and old index entries still read. */
public class TestProtoTranslation {
  private static ParityDescriptor full() {
    return ParityDescriptor.newBuilder().setFileId(16_400).setGeneration(1_764_000_000_123L).setPath("/data/part-0")
        .setLength(300L << 20).setModificationTime(1_764_000_000_000L).setLayout(ParityDescriptor.Layout.STRIPED)
        .setBlockSize(64L << 20).setCellSize(1 << 20).setK(6).setM(3).setSubblockBytes(1 << 20).setStripes(1)
        .setSubstripesPerStripe(64).setCachedStripes(new byte[] {1}).setParityBytes(192L << 20)
        .setKeyPrefix("pc:").setState(ParityDescriptor.State.FILLING).setRedisRunId("a1b2").setBlocksDigest(-7)
        .setProtection(ParityProtection.PRIVACY).setSealKeyId(3).setSealKey(new byte[32])
        .setValueDigests(new byte[] {9, 8, 7}).build();
  }

  @Test
  public void everyFieldSurvivesTheWireAndTheIndex() {
    ParityDescriptor d = full();
    assertEquals(d, ProtoTranslation.fromProto(ProtoTranslation.toProto(d)));
    assertEquals(d, ProtoTranslation.decodeDescriptor(ProtoTranslation.encode(d)));
    ParityDescriptor noKey = d.toBuilder().setSealKey(new byte[0]).setProtection(ParityProtection.NONE).build();
    assertFalse("an empty file key is not sent", ProtoTranslation.toProto(noKey).hasSealKey());
    assertEquals(noKey, ProtoTranslation.decodeDescriptor(ProtoTranslation.encode(noKey)));
  }

  @Test
  public void anIndexEntryWithoutTheOptionalFieldsReadsWithTheirDefaults() {
    // As a Manager that knew neither protection nor block digests wrote it.
    byte[] old = DescriptorProto.newBuilder().setFileId(5).setGeneration(6).setPath("/old").setLength(10)
        .setModificationTime(11).setLayout(LayoutProto.CONTIGUOUS).setBlockSize(4).setCellSize(0).setK(4).setM(1)
        .setSubblockBytes(2).setStripes(1).setSubstripesPerStripe(2).setCachedStripes(ByteString.copyFrom(
            new byte[] {1})).setParityBytes(4).setKeyPrefix("").setState(CacheStateProto.CACHED).build()
        .toByteArray();
    ParityDescriptor d = ProtoTranslation.decodeDescriptor(old);
    assertEquals(ParityProtection.NONE, d.getProtection());
    assertEquals(0, d.getBlocksDigest());
    assertEquals("", d.getRedisRunId());
    assertFalse(d.hasSealKey());
    assertEquals(0, d.getValueDigests().length);
    assertTrue(d.isStripeCached(0));
    assertFalse(d.isStripeCached(1));
    assertFalse(d.isStripeCached(-1));
  }

  @Test
  public void everyEnumValueMapsBothWays() {
    for (ParityDescriptor.State st : ParityDescriptor.State.values()) {
      assertEquals(st, ProtoTranslation.fromProto(ProtoTranslation.toProto(st)));
    }
    assertEquals(ParityDescriptor.State.values().length, CacheStateProto.values().length);
    for (ParityProtection p : ParityProtection.values()) {
      assertEquals(p, ProtoTranslation.fromProto(ProtoTranslation.toProto(p)));
    }
    assertEquals(ParityProtection.values().length, ParityProtectionProto.values().length);
    for (ReadReport.Outcome o : ReadReport.Outcome.values()) {
      assertEquals(o, ProtoTranslation.fromProto(ProtoTranslation.toProto(new ReadReport(1, 1, o))).getOutcome());
    }
    assertEquals(ReadReport.Outcome.values().length, ReadOutcomeProto.values().length);
  }

  @Test
  public void bytesThatAreNotADescriptorAreRefusedByName() {
    try {
      ProtoTranslation.decodeDescriptor(new byte[] {(byte) 0xff, 1, 2});
      fail("garbage decoded");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("not a parity descriptor"));
    }
  }

  @Test
  public void lookupsAdmissionsAndReportsSurviveTheWire() {
    Reservation fill = new Reservation(42, full(), 99);
    DescriptorLookup l = ProtoTranslation.fromProto(ProtoTranslation.toProto(
        new DescriptorLookup(null, "FILLING", fill)));
    assertNull(l.getParity());
    assertEquals("FILLING", l.getDecision());
    assertEquals(fill, l.getFill());

    WriteAdmission refused = ProtoTranslation.fromProto(ProtoTranslation.toProto(new WriteAdmission(null, "full")));
    assertFalse(refused.hasReservation());
    assertEquals("full", refused.getReason());

    ReadReport r = ProtoTranslation.fromProto(ProtoTranslation.toProto(new ReadReport(7, 8,
        ReadReport.Outcome.STRAGGLER_MASKED,
        Arrays.asList(new ReadReport.Observation("10.0.0.1:9866", 1 << 20, 12.5)))));
    assertEquals(ReadReport.Outcome.STRAGGLER_MASKED, r.getOutcome());
    assertEquals(8, r.getGeneration());
    assertEquals("10.0.0.1:9866", r.getObservations().get(0).getDataNode());
    assertEquals(12.5, r.getObservations().get(0).getMillis(), 0);

    ManagerReport m = ProtoTranslation.fromProto(ProtoTranslation.toProto(ManagerReport.newBuilder()
        .setCapacityBytes(1 << 30).setHits(5).setStragglers(Arrays.asList("a:1", "b:2")).setDetector("mad")
        .setPolicies("csac/lru/none").setRedisHealthy(true).setHeartbeats(9).build()));
    assertEquals(1 << 30, m.getCapacityBytes());
    assertEquals(Arrays.asList("a:1", "b:2"), m.getStragglers());
    assertTrue(m.isRedisHealthy());
    assertEquals(9, m.getHeartbeats());
  }

  @Test
  public void aDescriptorHandsOutCopiesOfItsBytes() {
    ParityDescriptor d = full();
    d.getSealKey()[0] = 1;
    d.getValueDigests()[0] = 0;
    assertArrayEquals(new byte[32], d.getSealKey());
    assertArrayEquals(new byte[] {9, 8, 7}, d.getValueDigests());
    assertFalse("toString shows no key", d.toString().contains("sealKey"));
  }
}
