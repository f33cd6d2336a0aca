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

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import org.pocache.cache.ParityProtection;
import org.pocache.manager.proto.PoCacheManagerProtos.AdmitWriteResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.CacheStateProto;
import org.pocache.manager.proto.PoCacheManagerProtos.DataNodeObservationProto;
import org.pocache.manager.proto.PoCacheManagerProtos.DescriptorProto;
import org.pocache.manager.proto.PoCacheManagerProtos.GetDescriptorResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.LayoutProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ListCachedResponseProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ParityProtectionProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReadOutcomeProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReportReadRequestProto;
import org.pocache.manager.proto.PoCacheManagerProtos.ReservationProto;

/**
 * Between the protocol's domain types and their protobuf messages, both ways. Only
 * the translators ({@link ServerSideTranslator}, {@link ManagerClient}) and the
 * Manager's index codec ({@link #encode}, {@link #decodeDescriptor}) see protobuf.
 */
public final class ProtoTranslation {
  private ProtoTranslation() {
  }

  // --- descriptors ---------------------------------------------------------------------

  public static DescriptorProto toProto(ParityDescriptor d) {
    DescriptorProto.Builder b = DescriptorProto.newBuilder().setFileId(d.getFileId()).setGeneration(d.getGeneration())
        .setPath(d.getPath()).setLength(d.getLength()).setModificationTime(d.getModificationTime())
        .setLayout(d.isStriped() ? LayoutProto.STRIPED : LayoutProto.CONTIGUOUS).setBlockSize(d.getBlockSize())
        .setCellSize(d.getCellSize()).setK(d.getK()).setM(d.getM()).setSubblockBytes(d.getSubblockBytes())
        .setStripes(d.getStripes()).setSubstripesPerStripe(d.getSubstripesPerStripe())
        .setCachedStripes(ByteString.copyFrom(d.getCachedStripes())).setParityBytes(d.getParityBytes())
        .setKeyPrefix(d.getKeyPrefix()).setState(toProto(d.getState())).setRedisRunId(d.getRedisRunId())
        .setBlocksDigest(d.getBlocksDigest()).setProtection(toProto(d.getProtection()))
        .setSealKeyId(d.getSealKeyId()).setValueDigests(ByteString.copyFrom(d.getValueDigests()));
    if (d.hasSealKey()) {
      b.setSealKey(ByteString.copyFrom(d.getSealKey()));
    }
    return b.build();
  }

  public static ParityDescriptor fromProto(DescriptorProto p) {
    return ParityDescriptor.newBuilder().setFileId(p.getFileId()).setGeneration(p.getGeneration())
        .setPath(p.getPath()).setLength(p.getLength()).setModificationTime(p.getModificationTime())
        .setLayout(p.getLayout() == LayoutProto.STRIPED ? ParityDescriptor.Layout.STRIPED
            : ParityDescriptor.Layout.CONTIGUOUS)
        .setBlockSize(p.getBlockSize()).setCellSize(p.getCellSize()).setK(p.getK()).setM(p.getM())
        .setSubblockBytes(p.getSubblockBytes()).setStripes(p.getStripes())
        .setSubstripesPerStripe(p.getSubstripesPerStripe()).setCachedStripes(p.getCachedStripes().toByteArray())
        .setParityBytes(p.getParityBytes()).setKeyPrefix(p.getKeyPrefix()).setState(fromProto(p.getState()))
        .setRedisRunId(p.getRedisRunId()).setBlocksDigest(p.getBlocksDigest())
        .setProtection(fromProto(p.getProtection())).setSealKeyId(p.getSealKeyId())
        .setSealKey(p.getSealKey().toByteArray()).setValueDigests(p.getValueDigests().toByteArray()).build();
  }

  /** A descriptor as the Manager's index in Redis stores it (a serialized {@code DescriptorProto}). */
  public static byte[] encode(ParityDescriptor d) {
    return toProto(d).toByteArray();
  }

  /**
   * A descriptor from the Manager's index in Redis.
   *
   * @throws IllegalArgumentException if {@code bytes} are not a descriptor
   */
  public static ParityDescriptor decodeDescriptor(byte[] bytes) {
    try {
      return fromProto(DescriptorProto.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not a parity descriptor: " + e.getMessage(), e);
    }
  }

  // The enums carry the same names on both sides (the protection's with a prefix);
  // TestProtoTranslation maps every value both ways.

  static CacheStateProto toProto(ParityDescriptor.State s) {
    return CacheStateProto.valueOf(s.name());
  }

  static ParityDescriptor.State fromProto(CacheStateProto s) {
    return ParityDescriptor.State.valueOf(s.name());
  }

  private static final String PROTECTION = "PROTECTION_";

  static ParityProtectionProto toProto(ParityProtection p) {
    return ParityProtectionProto.valueOf(PROTECTION + p.name());
  }

  static ParityProtection fromProto(ParityProtectionProto p) {
    return ParityProtection.valueOf(p.name().substring(PROTECTION.length()));
  }

  // --- lookups, writes -----------------------------------------------------------------

  static ReservationProto toProto(Reservation r) {
    return ReservationProto.newBuilder().setId(r.getId()).setParity(toProto(r.getParity()))
        .setExpiresAtMillis(r.getExpiresAtMillis()).build();
  }

  static Reservation fromProto(ReservationProto r) {
    return new Reservation(r.getId(), fromProto(r.getParity()), r.getExpiresAtMillis());
  }

  static GetDescriptorResponseProto toProto(DescriptorLookup l) {
    GetDescriptorResponseProto.Builder b = GetDescriptorResponseProto.newBuilder().setDecision(l.getDecision());
    if (l.hasParity()) {
      b.setParity(toProto(l.getParity()));
    }
    if (l.hasFill()) {
      b.setFill(toProto(l.getFill()));
    }
    return b.build();
  }

  static DescriptorLookup fromProto(GetDescriptorResponseProto r) {
    return new DescriptorLookup(r.hasParity() ? fromProto(r.getParity()) : null, r.getDecision(),
        r.hasFill() ? fromProto(r.getFill()) : null);
  }

  static AdmitWriteResponseProto toProto(WriteAdmission a) {
    AdmitWriteResponseProto.Builder b = AdmitWriteResponseProto.newBuilder().setReason(a.getReason());
    if (a.hasReservation()) {
      b.setReservation(toProto(a.getReservation()));
    }
    return b.build();
  }

  static WriteAdmission fromProto(AdmitWriteResponseProto r) {
    return new WriteAdmission(r.hasReservation() ? fromProto(r.getReservation()) : null, r.getReason());
  }

  // --- reads ---------------------------------------------------------------------------

  static ReportReadRequestProto toProto(ReadReport r) {
    ReportReadRequestProto.Builder b = ReportReadRequestProto.newBuilder().setFileId(r.getFileId())
        .setGeneration(r.getGeneration()).setOutcome(ReadOutcomeProto.valueOf(r.getOutcome().name()));
    for (ReadReport.Observation o : r.getObservations()) {
      b.addObservations(DataNodeObservationProto.newBuilder().setDataNode(o.getDataNode()).setBytes(o.getBytes())
          .setMillis(o.getMillis()));
    }
    return b.build();
  }

  static ReadReport fromProto(ReportReadRequestProto r) {
    List<ReadReport.Observation> seen = new ArrayList<>(r.getObservationsCount());
    for (DataNodeObservationProto o : r.getObservationsList()) {
      seen.add(new ReadReport.Observation(o.getDataNode(), o.getBytes(), o.getMillis()));
    }
    return new ReadReport(r.getFileId(), r.getGeneration(), ReadReport.Outcome.valueOf(r.getOutcome().name()), seen);
  }

  // --- operators -----------------------------------------------------------------------

  static ReportProto toProto(ManagerReport r) {
    return ReportProto.newBuilder().setCapacityBytes(r.getCapacityBytes()).setUsedBytes(r.getUsedBytes())
        .setFilesCached(r.getFilesCached()).setReservations(r.getReservations()).setHits(r.getHits())
        .setMisses(r.getMisses()).setStragglerHits(r.getStragglerHits()).setAdmissions(r.getAdmissions())
        .setEvictions(r.getEvictions()).setPrefetches(r.getPrefetches()).setFailedFills(r.getFailedFills())
        .addAllStragglers(r.getStragglers()).setDetector(r.getDetector()).setPolicies(r.getPolicies())
        .setRedisHealthy(r.isRedisHealthy()).setRedisRestarts(r.getRedisRestarts())
        .setClientObservations(r.getClientObservations()).setHeartbeats(r.getHeartbeats()).build();
  }

  static ManagerReport fromProto(ReportProto r) {
    return ManagerReport.newBuilder().setCapacityBytes(r.getCapacityBytes()).setUsedBytes(r.getUsedBytes())
        .setFilesCached(r.getFilesCached()).setReservations(r.getReservations()).setHits(r.getHits())
        .setMisses(r.getMisses()).setStragglerHits(r.getStragglerHits()).setAdmissions(r.getAdmissions())
        .setEvictions(r.getEvictions()).setPrefetches(r.getPrefetches()).setFailedFills(r.getFailedFills())
        .setStragglers(r.getStragglersList()).setDetector(r.getDetector()).setPolicies(r.getPolicies())
        .setRedisHealthy(r.getRedisHealthy()).setRedisRestarts(r.getRedisRestarts())
        .setClientObservations(r.getClientObservations()).setHeartbeats(r.getHeartbeats()).build();
  }

  static ListCachedResponseProto toProto(CachedFiles c) {
    ListCachedResponseProto.Builder b = ListCachedResponseProto.newBuilder().setTruncated(c.isTruncated());
    for (ParityDescriptor d : c.getDescriptors()) {
      b.addDescriptors(toProto(d));
    }
    return b.build();
  }

  static CachedFiles fromProto(ListCachedResponseProto r) {
    List<ParityDescriptor> out = new ArrayList<>(r.getDescriptorsCount());
    for (DescriptorProto d : r.getDescriptorsList()) {
      out.add(fromProto(d));
    }
    return new CachedFiles(out, r.getTruncated());
  }
}
