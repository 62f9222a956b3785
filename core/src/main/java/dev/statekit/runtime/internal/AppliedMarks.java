package dev.statekit.runtime.internal;

import dev.statekit.runtime.bus.QueueIds;
import dev.statekit.runtime.internal.data.GroupMark;
import dev.statekit.runtime.internal.data.RecentIds;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.internal.data.SenderMark;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an address has applied, so repeats are dropped: the last sequence number per queue message
 * group, the last bundle (and how far into it) per sending address, and the fingerprints of recent
 * idempotency keys. AppliedMarks not seen for a while are forgotten (see {@link #writeTo}).
 */
final class AppliedMarks {
  private final Map<String, GroupMark> groups = new HashMap<>();
  private final Map<String, SenderMark> senders = new HashMap<>();

  /** Fingerprints of recent idempotency keys with when they were applied, oldest first. */
  private final LinkedHashMap<Long, Long> recentIds = new LinkedHashMap<>();

  static AppliedMarks of(RuntimeData data) {
    AppliedMarks marks = new AppliedMarks();
    data.getGroupsList().forEach(mark -> marks.groups.put(mark.getGroupId(), mark));
    data.getSendersList().forEach(mark -> marks.senders.put(mark.getSender(), mark));
    for (RecentIds commit : data.getRecentIdsList()) {
      commit
          .getFingerprintsList()
          .forEach(f -> marks.recentIds.put(f, commit.getAppliedAtSeconds()));
    }
    return marks;
  }

  boolean queueSeen(String groupId, String sequence) {
    GroupMark mark = groups.get(groupId);
    return mark != null && compareSequences(sequence, mark.getSequence()) <= 0;
  }

  boolean bundleSeen(String sender, long version, int part, int index) {
    SenderMark mark = senders.get(sender);
    if (mark == null) {
      return false;
    }
    int bundle = compareBundles(version, part, mark.getVersion(), mark.getPart());
    return bundle < 0 || (bundle == 0 && index < mark.getApplied());
  }

  boolean idSeen(String idempotencyKey) {
    return recentIds.containsKey(QueueIds.fingerprint(idempotencyKey));
  }

  void recordQueue(String groupId, String sequence, long nowSeconds) {
    GroupMark mark = groups.get(groupId);
    if (mark == null || compareSequences(sequence, mark.getSequence()) > 0) {
      groups.put(
          groupId,
          GroupMark.newBuilder()
              .setGroupId(groupId)
              .setSequence(sequence)
              .setSeenAtSeconds(nowSeconds)
              .build());
    }
  }

  void recordBundle(String sender, long version, int part, int index, long nowSeconds) {
    SenderMark mark = senders.get(sender);
    if (mark == null
        || compareBundles(version, part, mark.getVersion(), mark.getPart()) > 0
        || (compareBundles(version, part, mark.getVersion(), mark.getPart()) == 0
            && index + 1 > mark.getApplied())) {
      senders.put(
          sender,
          SenderMark.newBuilder()
              .setSender(sender)
              .setVersion(version)
              .setPart(part)
              .setApplied(index + 1)
              .setSeenAtSeconds(nowSeconds)
              .build());
    }
  }

  void recordId(String idempotencyKey, long nowSeconds) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    recentIds.remove(fingerprint);
    recentIds.put(fingerprint, nowSeconds);
  }

  /**
   * Writes the marks, forgetting group and sender marks not seen within {@code retentionSeconds}
   * and idempotency keys older than {@code idRetentionSeconds} or beyond the newest {@code
   * idCapacity}.
   */
  void writeTo(
      RuntimeData.Builder data,
      long nowSeconds,
      long retentionSeconds,
      long idRetentionSeconds,
      int idCapacity) {
    groups.values().stream()
        .filter(mark -> mark.getSeenAtSeconds() + retentionSeconds > nowSeconds)
        .sorted((a, b) -> a.getGroupId().compareTo(b.getGroupId()))
        .forEach(data::addGroups);
    senders.values().stream()
        .filter(mark -> mark.getSeenAtSeconds() + retentionSeconds > nowSeconds)
        .sorted((a, b) -> a.getSender().compareTo(b.getSender()))
        .forEach(data::addSenders);
    List<Map.Entry<Long, Long>> ids = new ArrayList<>(recentIds.entrySet());
    ids.removeIf(id -> id.getValue() + idRetentionSeconds <= nowSeconds);
    RecentIds.Builder commit = null;
    for (Map.Entry<Long, Long> id : ids.subList(Math.max(0, ids.size() - idCapacity), ids.size())) {
      if (commit == null || commit.getAppliedAtSeconds() != id.getValue()) {
        if (commit != null) {
          data.addRecentIds(commit);
        }
        commit = RecentIds.newBuilder().setAppliedAtSeconds(id.getValue());
      }
      commit.addFingerprints(id.getKey());
    }
    if (commit != null) {
      data.addRecentIds(commit);
    }
  }

  /** Compares FIFO sequence numbers: decimals of up to 128 bits, without leading zeros. */
  static int compareSequences(String a, String b) {
    String x = stripZeros(a);
    String y = stripZeros(b);
    return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
  }

  private static int compareBundles(long version, int part, long otherVersion, int otherPart) {
    return version != otherVersion
        ? Long.compare(version, otherVersion)
        : Integer.compare(part, otherPart);
  }

  private static String stripZeros(String decimal) {
    int i = 0;
    while (i < decimal.length() - 1 && decimal.charAt(i) == '0') {
      i++;
    }
    return decimal.substring(i);
  }
}
