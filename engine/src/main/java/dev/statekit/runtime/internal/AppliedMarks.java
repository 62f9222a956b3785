package dev.statekit.runtime.internal;

import dev.statekit.bus.QueueIds;
import dev.statekit.runtime.internal.data.CallReply;
import dev.statekit.runtime.internal.data.GroupMark;
import dev.statekit.runtime.internal.data.RecentIds;
import dev.statekit.runtime.internal.data.RuntimeData;
import dev.statekit.runtime.internal.data.SenderMark;
import dev.statekit.runtime.store.SpilledMark;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What an address has applied, so repeats are dropped: the last sequence number per queue message
 * group, the last bundle (and how far into it) per sending address, and the fingerprints of recent
 * idempotency keys. The item holds a bounded number of each; when more are to be kept, the least
 * recently seen leave the item for items of their own ({@link SpilledMark}s, written before the
 * commit that drops them), and a mark missing here is looked up there while spilled marks still
 * count. So an address can hear from any number of senders and keys and its item stays bounded.
 */
final class AppliedMarks {
  /** How many marks the item keeps and for how long. */
  record Limits(
      long dedupRetentionSeconds, int markCapacity, long idRetentionSeconds, int idCapacity) {}

  private final Map<String, GroupMark> groups = new HashMap<>();
  private final Map<String, SenderMark> senders = new HashMap<>();

  /** Fingerprints of recent idempotency keys with when they were applied, oldest first. */
  private final LinkedHashMap<Long, Long> recentIds = new LinkedHashMap<>();

  /** The replies of recent calls by key fingerprint, oldest first. */
  private final LinkedHashMap<Long, CallReply> replies = new LinkedHashMap<>();

  private final Map<String, SpilledMark> spilled;
  private final Set<String> touched = new HashSet<>();
  private long groupsSpilledUntil;
  private long sendersSpilledUntil;
  private long idsSpilledUntil;
  private long repliesSpilledUntil;

  private AppliedMarks(Map<String, SpilledMark> spilled) {
    this.spilled = spilled;
  }

  /** The marks in {@code data}, and those of {@code spilled} read for this batch. */
  static AppliedMarks of(RuntimeData data, Map<String, SpilledMark> spilled) {
    AppliedMarks marks = new AppliedMarks(spilled);
    data.getGroupsList().forEach(mark -> marks.groups.put(mark.getGroupId(), mark));
    data.getSendersList().forEach(mark -> marks.senders.put(mark.getSender(), mark));
    for (RecentIds commit : data.getRecentIdsList()) {
      commit
          .getFingerprintsList()
          .forEach(f -> marks.recentIds.put(f, commit.getAppliedAtSeconds()));
    }
    marks.groupsSpilledUntil = data.getGroupsSpilledUntil();
    marks.sendersSpilledUntil = data.getSendersSpilledUntil();
    marks.idsSpilledUntil = data.getIdsSpilledUntil();
    data.getRepliesList().forEach(reply -> marks.replies.put(reply.getFingerprint(), reply));
    marks.repliesSpilledUntil = data.getRepliesSpilledUntil();
    return marks;
  }

  /** The spilled mark ids to read before deciding about a message of {@code groupId}. */
  void groupLookup(String groupId, long nowSeconds, Set<String> lookups) {
    if (!groups.containsKey(groupId) && nowSeconds < groupsSpilledUntil) {
      lookups.add(groupMarkId(groupId));
    }
  }

  void senderLookup(String senderHash, long nowSeconds, Set<String> lookups) {
    if (!senders.containsKey(senderHash) && nowSeconds < sendersSpilledUntil) {
      lookups.add(senderMarkId(senderHash));
    }
  }

  void idLookup(String idempotencyKey, long nowSeconds, Set<String> lookups) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    if (!recentIds.containsKey(fingerprint) && nowSeconds < idsSpilledUntil) {
      lookups.add(idMarkId(fingerprint));
    }
  }

  /**
   * A call's key: its reply may have left the item too. Read only when the key may have been
   * applied (it is in the item, or keys have left it too): a new key costs no read.
   */
  void replyLookup(String idempotencyKey, long nowSeconds, Set<String> lookups) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    if (!replies.containsKey(fingerprint)
        && nowSeconds < repliesSpilledUntil
        && (recentIds.containsKey(fingerprint) || nowSeconds < idsSpilledUntil)) {
      lookups.add(replyMarkId(fingerprint));
    }
  }

  /**
   * What the call applied under {@code idempotencyKey} answered, from the item or a spilled mark
   * read for this batch; {@code null} if no reply is kept for the key (it was applied by a message
   * that was not a call).
   */
  CallReply reply(String idempotencyKey) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    CallReply kept = replies.get(fingerprint);
    if (kept != null) {
      return kept;
    }
    SpilledMark away = spilled.get(replyMarkId(fingerprint));
    return away == null ? null : CallReplies.fromPosition(away.position(), fingerprint);
  }

  void recordReply(String idempotencyKey, CallReply reply) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    touched.add(replyMarkId(fingerprint));
    replies.remove(fingerprint);
    replies.put(fingerprint, reply.toBuilder().setFingerprint(fingerprint).build());
  }

  boolean queueSeen(String groupId, String sequence) {
    GroupMark mark = groups.get(groupId);
    if (mark != null) {
      return compareSequences(sequence, mark.getSequence()) <= 0;
    }
    SpilledMark away = spilled.get(groupMarkId(groupId));
    return away != null && groupPosition(sequence).compareTo(away.position()) <= 0;
  }

  boolean bundleSeen(String senderHash, long version, int part, int index) {
    SenderMark mark = senders.get(senderHash);
    if (mark != null) {
      int bundle = compareBundles(version, part, mark.getVersion(), mark.getPart());
      return bundle < 0 || (bundle == 0 && index < mark.getApplied());
    }
    SpilledMark away = spilled.get(senderMarkId(senderHash));
    return away != null && senderPosition(version, part, index + 1).compareTo(away.position()) <= 0;
  }

  boolean idSeen(String idempotencyKey) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    return recentIds.containsKey(fingerprint) || spilled.containsKey(idMarkId(fingerprint));
  }

  void recordQueue(String groupId, String sequence, long nowSeconds) {
    touched.add(groupMarkId(groupId));
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

  void recordBundle(String senderHash, long version, int part, int index, long nowSeconds) {
    touched.add(senderMarkId(senderHash));
    SenderMark mark = senders.get(senderHash);
    if (mark == null
        || compareBundles(version, part, mark.getVersion(), mark.getPart()) > 0
        || (compareBundles(version, part, mark.getVersion(), mark.getPart()) == 0
            && index + 1 > mark.getApplied())) {
      senders.put(
          senderHash,
          SenderMark.newBuilder()
              .setSender(senderHash)
              .setVersion(version)
              .setPart(part)
              .setApplied(index + 1)
              .setSeenAtSeconds(nowSeconds)
              .build());
    }
  }

  void recordId(String idempotencyKey, long nowSeconds) {
    long fingerprint = QueueIds.fingerprint(idempotencyKey);
    touched.add(idMarkId(fingerprint));
    recentIds.remove(fingerprint);
    recentIds.put(fingerprint, nowSeconds);
  }

  /**
   * Writes the marks: those past their retention are forgotten; beyond the item's capacity the
   * least recently seen of those read with the state (never one this batch recorded: only what is
   * committed may leave) go to their own items.
   *
   * @return the marks that leave the item, to be written before the commit
   */
  List<SpilledMark> writeTo(RuntimeData.Builder data, long nowSeconds, Limits limits) {
    List<SpilledMark> leaving = new ArrayList<>();
    long groupRetention = limits.dedupRetentionSeconds();
    List<GroupMark> keptGroups =
        keep(
            new ArrayList<>(groups.values()),
            nowSeconds,
            groupRetention,
            limits.markCapacity(),
            GroupMark::getSeenAtSeconds,
            mark -> groupMarkId(mark.getGroupId()),
            mark -> groupPosition(mark.getSequence()),
            true,
            leaving);
    keptGroups.sort(Comparator.comparing(GroupMark::getGroupId));
    keptGroups.forEach(data::addGroups);
    int groupsLeaving = leaving.size();
    List<SenderMark> keptSenders =
        keep(
            new ArrayList<>(senders.values()),
            nowSeconds,
            groupRetention,
            limits.markCapacity(),
            SenderMark::getSeenAtSeconds,
            mark -> senderMarkId(mark.getSender()),
            mark -> senderPosition(mark.getVersion(), mark.getPart(), mark.getApplied()),
            true,
            leaving);
    keptSenders.sort(Comparator.comparing(SenderMark::getSender));
    keptSenders.forEach(data::addSenders);
    int sendersLeaving = leaving.size() - groupsLeaving;
    List<Map.Entry<Long, Long>> ids = new ArrayList<>(recentIds.entrySet());
    ids.removeIf(id -> id.getValue() + limits.idRetentionSeconds() <= nowSeconds);
    List<Map.Entry<Long, Long>> keptIds =
        keep(
            ids,
            nowSeconds,
            limits.idRetentionSeconds(),
            limits.idCapacity(),
            Map.Entry::getValue,
            id -> idMarkId(id.getKey()),
            id -> "0",
            false,
            leaving);
    keptIds.sort(Map.Entry.comparingByValue());
    writeIds(data, keptIds);
    int idsLeaving = leaving.size() - groupsLeaving - sendersLeaving;
    writeReplies(data, nowSeconds, limits, leaving);
    data.setGroupsSpilledUntil(
        until(groupsSpilledUntil, leaving.subList(0, groupsLeaving), nowSeconds));
    data.setSendersSpilledUntil(
        until(
            sendersSpilledUntil,
            leaving.subList(groupsLeaving, groupsLeaving + sendersLeaving),
            nowSeconds));
    data.setIdsSpilledUntil(
        until(
            idsSpilledUntil,
            leaving.subList(
                groupsLeaving + sendersLeaving, groupsLeaving + sendersLeaving + idsLeaving),
            nowSeconds));
    data.setRepliesSpilledUntil(
        until(
            repliesSpilledUntil,
            leaving.subList(groupsLeaving + sendersLeaving + idsLeaving, leaving.size()),
            nowSeconds));
    return leaving;
  }

  /**
   * The marks to keep in the item: those within their retention, and beyond {@code capacity} down
   * to three quarters of it (so marks leave in groups, not one per commit) the most recently seen;
   * the others that are not {@link #touched} join {@code leaving}.
   */
  private <M> List<M> keep(
      List<M> marks,
      long nowSeconds,
      long retention,
      int capacity,
      ToLongFunction<M> seenAt,
      java.util.function.Function<M, String> id,
      java.util.function.Function<M, String> position,
      boolean ordered,
      List<SpilledMark> leaving) {
    marks.removeIf(mark -> seenAt.applyAsLong(mark) + retention <= nowSeconds);
    if (marks.size() <= capacity) {
      return marks;
    }
    marks.sort(Comparator.comparingLong(seenAt));
    int excess = marks.size() - capacity * 3 / 4;
    List<M> kept = new ArrayList<>();
    for (M mark : marks) {
      if (excess > 0 && !touched.contains(id.apply(mark))) {
        leaving.add(
            new SpilledMark(
                id.apply(mark),
                position.apply(mark),
                seenAt.applyAsLong(mark) + retention,
                ordered));
        excess--;
      } else {
        kept.add(mark);
      }
    }
    return kept;
  }

  /**
   * Keeps the replies within their keys' retention; past {@link RuntimeSettings#REPLY_BUDGET_BYTES}
   * in the item (or more replies than keys are kept) the oldest that this batch did not record
   * leave for items of their own, so a called address's item, rewritten by each commit, stays
   * small.
   */
  private void writeReplies(
      RuntimeData.Builder data, long nowSeconds, Limits limits, List<SpilledMark> leaving) {
    List<CallReply> kept = new ArrayList<>();
    long bytes = 0;
    for (CallReply reply : replies.values()) {
      if (reply.getAppliedAtSeconds() + limits.idRetentionSeconds() > nowSeconds) {
        kept.add(reply);
        bytes += reply.getSerializedSize();
      }
    }
    for (int i = 0; i < kept.size(); ) {
      CallReply reply = kept.get(i);
      boolean over =
          bytes > RuntimeSettings.REPLY_BUDGET_BYTES || kept.size() > limits.idCapacity();
      if (!over) {
        break;
      }
      if (touched.contains(replyMarkId(reply.getFingerprint()))) {
        i++;
        continue;
      }
      leaving.add(
          new SpilledMark(
              replyMarkId(reply.getFingerprint()),
              CallReplies.toPosition(reply),
              reply.getAppliedAtSeconds() + limits.idRetentionSeconds(),
              false));
      bytes -= reply.getSerializedSize();
      kept.remove(i);
    }
    kept.forEach(data::addReplies);
  }

  private static void writeIds(RuntimeData.Builder data, List<Map.Entry<Long, Long>> ids) {
    RecentIds.Builder commit = null;
    for (Map.Entry<Long, Long> id : ids) {
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

  /** Until when spilled marks count: the latest expiry among them, 0 once it has passed. */
  private static long until(long before, List<SpilledMark> leaving, long nowSeconds) {
    long latest = before;
    for (SpilledMark mark : leaving) {
      latest = Math.max(latest, mark.expiresAtSeconds());
    }
    return latest > nowSeconds ? latest : 0;
  }

  static String groupMarkId(String groupId) {
    return "g:" + groupId;
  }

  static String senderMarkId(String senderHash) {
    return "s:" + senderHash;
  }

  private static String replyMarkId(long fingerprint) {
    return "r:" + Long.toHexString(fingerprint);
  }

  private static String idMarkId(long fingerprint) {
    return "k:" + Long.toHexString(fingerprint);
  }

  /** A sequence number as a string that sorts like the number: 40 digits, zero-padded. */
  private static String groupPosition(String sequence) {
    String digits = stripZeros(sequence);
    return "0".repeat(Math.max(0, 40 - digits.length())) + digits;
  }

  /** How far into a sender's bundles: version, part, and how many of the part's messages. */
  private static String senderPosition(long version, int part, int applied) {
    return String.format("%019d.%010d.%010d", version, part, applied);
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
