package dev.statekit.runtime.internal;

import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.runtime.internal.data.DeadLetter;
import dev.statekit.runtime.internal.data.OutgoingBundle;
import dev.statekit.runtime.internal.data.OutgoingEgress;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Delivers committed outboxes: bundles to the queue, egress records to their sinks, dead letters to
 * the dead-letter queue, all at once (one round trip when each fits one request). Every entry keeps
 * the id it was committed with, so a repeated delivery is dropped by the queue, the receiving
 * address or an idempotent sink. A sender's bundles to one target go out in part order, one part
 * per request round, and stop at the first that fails, so its messages never overtake each other.
 */
final class OutboxDelivery {
  private final RuntimeSettings settings;

  OutboxDelivery(RuntimeSettings settings) {
    this.settings = settings;
  }

  /**
   * Delivers.
   *
   * @param resend whether these outboxes may have gone out before (a later delivery of an earlier
   *     commit's outbox): their bundles say so, for the receivers to check
   * @return what did not go out, by address (empty when all went out)
   */
  Map<Address, Undelivered> deliver(List<PendingOutbox> outboxes, boolean resend) {
    return deliver(outboxes, resend, Map.of());
  }

  /**
   * Delivers all but what earlier tries delivered: {@code out}, by address, names their egress
   * records and dead letters ({@link Undelivered#out}), which are skipped.
   */
  Map<Address, Undelivered> deliver(
      List<PendingOutbox> outboxes, boolean resend, Map<Address, Set<String>> out) {
    Map<Address, Undelivered> failures = new ConcurrentHashMap<>();
    if (outboxes.isEmpty()) {
      return failures;
    }
    List<Callable<Void>> steps = new ArrayList<>();
    steps.add(() -> sendBundles(outboxes, resend, failures));
    egressBySink(outboxes, out, failures)
        .forEach(
            (sink, records) ->
                steps.add(
                    () -> {
                      deliverEgress(sink, records, failures);
                      return null;
                    }));
    List<Sent> deadLetters = new ArrayList<>();
    for (PendingOutbox pending : outboxes) {
      List<DeadLetter> letters = pending.outbox().getDeadLettersList();
      Set<String> skip = out.getOrDefault(pending.address(), Set.of());
      for (int i = 0; i < letters.size(); i++) {
        if (skip.contains(Undelivered.deadLetterItem(i))) {
          continue;
        }
        deadLetters.add(new Sent(pending.address(), i, DeadLetters.message(letters.get(i))));
      }
    }
    chunks(deadLetters)
        .forEach(
            chunk ->
                steps.add(
                    () -> {
                      send(
                          settings.deadLetters,
                          chunk,
                          (sent, why) ->
                              undelivered(failures, sent.sender).deadLetter(sent.index, why));
                      return null;
                    }));
    settings.parallel.all(steps);
    return failures;
  }

  private Void sendBundles(
      List<PendingOutbox> outboxes, boolean resend, Map<Address, Undelivered> failures) {
    Map<Integer, List<Sent>> rounds = new LinkedHashMap<>();
    Map<Sent, String> keys = new java.util.IdentityHashMap<>();
    for (PendingOutbox pending : outboxes) {
      for (OutgoingBundle bundle : pending.outbox().getBundlesList()) {
        Sent sent = new Sent(pending.address(), 0, message(pending, bundle, resend));
        rounds.computeIfAbsent(bundle.getPart(), p -> new ArrayList<>()).add(sent);
        keys.put(
            sent,
            Undelivered.bundleKey(bundle.getTargetType(), bundle.getTargetId(), bundle.getPart()));
      }
    }
    Set<String> stopped = ConcurrentHashMap.newKeySet();
    for (int part = 0; rounds.containsKey(part); part++) {
      List<Sent> round = new ArrayList<>();
      for (Sent sent : rounds.get(part)) {
        String chain = sent.sender + "|" + sent.message.groupId();
        if (stopped.contains(chain)) {
          undelivered(failures, sent.sender)
              .bundle(keys.get(sent), "an earlier part to the same target was not sent");
        } else {
          round.add(sent);
        }
      }
      List<Callable<Void>> requests = new ArrayList<>();
      chunks(round)
          .forEach(
              chunk ->
                  requests.add(
                      () -> {
                        send(
                            settings.queue,
                            chunk,
                            (sent, why) -> {
                              stopped.add(sent.sender + "|" + sent.message.groupId());
                              undelivered(failures, sent.sender).bundle(keys.get(sent), why);
                            });
                        return null;
                      }));
      settings.parallel.all(requests);
    }
    return null;
  }

  /** The queue message of a bundle: the same id on every delivery. */
  static BusMessage message(PendingOutbox pending, OutgoingBundle bundle, boolean resend) {
    Address target = Address.of(TypeName.parse(bundle.getTargetType()), bundle.getTargetId());
    String body =
        QueueBodyCodec.bundle(
            pending.address(),
            pending.outbox().getIncarnation(),
            pending.version(),
            bundle.getPart(),
            target,
            bundle.getPayloadsList(),
            pending.outbox().getCommittedAtMillis(),
            resend);
    return new BusMessage(
        QueueIds.groupId(target), "b-" + QueueIds.sha256(bundleId(pending, bundle)), body);
  }

  /** A bundle's id: unique, and the same every time. */
  static String bundleId(PendingOutbox pending, OutgoingBundle bundle) {
    return DeadLetters.bundleId(
        pending.address(),
        pending.outbox().getIncarnation(),
        pending.version(),
        Address.of(TypeName.parse(bundle.getTargetType()), bundle.getTargetId()),
        bundle.getPart());
  }

  private Map<EgressSink, List<Routed>> egressBySink(
      List<PendingOutbox> outboxes,
      Map<Address, Set<String>> out,
      Map<Address, Undelivered> failures) {
    Map<EgressSink, List<Routed>> bySink = new LinkedHashMap<>();
    for (PendingOutbox pending : outboxes) {
      List<OutgoingEgress> egress = pending.outbox().getEgressList();
      Set<String> skip = out.getOrDefault(pending.address(), Set.of());
      for (int i = 0; i < egress.size(); i++) {
        if (skip.contains(Undelivered.egressItem(i))) {
          continue;
        }
        OutgoingEgress record = egress.get(i);
        try {
          EgressRoutes.Routed routed =
              settings.egress.resolve(
                  recordId(pending, i),
                  TypeName.parse(record.getEgress()),
                  pending.address(),
                  record.getTypeName(),
                  record.getValue().toByteArray());
          bySink
              .computeIfAbsent(routed.sink(), s -> new ArrayList<>())
              .add(
                  new Routed(
                      pending.address(),
                      i,
                      record.getTraceId().isEmpty()
                          ? routed.record()
                          : routed.record().withTraceId(record.getTraceId())));
        } catch (IllegalArgumentException e) {
          // The routes changed since the commit: the record stays until they take it again, or
          // until it is dead-lettered.
          undelivered(failures, pending.address()).egress(i, e.getMessage());
        }
      }
    }
    return bySink;
  }

  /** {@code <address>:<incarnation>:<version>:<index>}: the same on every delivery, unique. */
  static String recordId(PendingOutbox pending, int index) {
    return pending.address()
        + ":"
        + Long.toHexString(pending.outbox().getIncarnation())
        + ":"
        + pending.version()
        + ":"
        + index;
  }

  private static void deliverEgress(
      EgressSink sink, List<Routed> routed, Map<Address, Undelivered> failures) {
    List<EgressRecord> records = new ArrayList<>();
    routed.forEach(r -> records.add(r.record));
    try {
      sink.deliver(records);
    } catch (EgressException e) {
      if (e.reason() == EgressException.Reason.INVALID_REQUEST && routed.size() > 1) {
        Set<String> delivered = e.deliveredRecordIds();
        oneByOne(
            sink,
            routed.stream().filter(r -> !delivered.contains(r.record.id())).toList(),
            failures);
        return;
      }
      failed(sink, routed, failures, e);
    } catch (RuntimeException e) {
      failed(sink, routed, failures, e);
    }
  }

  /**
   * After a sink refused a whole call for one record it can never take (one past its size): each
   * record goes alone, so that only that one fails, not its neighbours on every try. A sender's
   * records keep their order: once one of them fails, its later ones wait for the next try with it,
   * since a refusal that passes is not always told from one for good (an SSE-KMS queue's throttling
   * comes as a bad request).
   */
  private static void oneByOne(
      EgressSink sink, List<Routed> routed, Map<Address, Undelivered> failures) {
    Set<Address> waiting = new HashSet<>();
    for (Routed r : routed) {
      if (waiting.contains(r.sender)) {
        undelivered(failures, r.sender)
            .egress(r.index, "an earlier egress record of " + r.sender + " was not delivered");
        continue;
      }
      try {
        sink.deliver(List.of(r.record));
      } catch (RuntimeException e) {
        failed(sink, List.of(r), failures, e);
        waiting.add(r.sender);
      }
    }
  }

  /** Marks the records of a failed call undelivered, but those the sink says went out. */
  private static void failed(
      EgressSink sink, List<Routed> routed, Map<Address, Undelivered> failures, Exception e) {
    String why = "egress to " + sink + " failed: " + e.getMessage();
    Set<String> delivered =
        e instanceof EgressException egress ? egress.deliveredRecordIds() : Set.of();
    routed.stream()
        .filter(r -> !delivered.contains(r.record.id()))
        .forEach(r -> undelivered(failures, r.sender).egress(r.index, why));
  }

  /** Sends a chunk; {@code failed} hears of each message that was not sent. */
  private static void send(
      MessageBus bus, List<Sent> chunk, java.util.function.BiConsumer<Sent, String> failed) {
    List<BusMessage> messages = new ArrayList<>();
    chunk.forEach(sent -> messages.add(sent.message));
    try {
      bus.send(messages);
    } catch (BusException e) {
      e.failedIndices().forEach(i -> failed.accept(chunk.get(i), e.getMessage()));
    } catch (RuntimeException e) {
      chunk.forEach(sent -> failed.accept(sent, "sending to " + bus + " failed: " + e));
    }
  }

  private static Undelivered undelivered(Map<Address, Undelivered> failures, Address address) {
    return failures.computeIfAbsent(address, a -> new Undelivered());
  }

  /** Requests of at most 10 messages and 256 KiB. */
  private List<List<Sent>> chunks(List<Sent> messages) {
    List<List<Sent>> chunks = new ArrayList<>();
    List<Sent> chunk = new ArrayList<>();
    long bytes = 0;
    for (Sent sent : messages) {
      long size =
          sent.message.body().getBytes(StandardCharsets.UTF_8).length
              + RuntimeSettings.MESSAGE_MARGIN / 4;
      if (!chunk.isEmpty()
          && (chunk.size() == MessageBus.MAX_BATCH
              || bytes + size > settings.queue.maxMessageBytes())) {
        chunks.add(chunk);
        chunk = new ArrayList<>();
        bytes = 0;
      }
      chunk.add(sent);
      bytes += size;
    }
    if (!chunk.isEmpty()) {
      chunks.add(chunk);
    }
    return chunks;
  }

  private static final class Sent {
    final Address sender;
    final int index;
    final BusMessage message;

    Sent(Address sender, int index, BusMessage message) {
      this.sender = sender;
      this.index = index;
      this.message = message;
    }
  }

  private record Routed(Address sender, int index, EgressRecord record) {}
}
