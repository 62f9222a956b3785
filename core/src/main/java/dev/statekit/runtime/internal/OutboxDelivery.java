package dev.statekit.runtime.internal;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.egress.EgressSink;
import dev.statekit.function.Address;
import dev.statekit.function.TypeName;
import dev.statekit.runtime.bus.BusException;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.bus.MessageBus;
import dev.statekit.runtime.bus.QueueIds;
import dev.statekit.runtime.internal.data.DeadLetter;
import dev.statekit.runtime.internal.data.OutgoingBundle;
import dev.statekit.runtime.internal.data.OutgoingEgress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /** Delivers; returns why delivery failed, by address (empty when all went out). */
  Map<Address, String> deliver(List<PendingOutbox> outboxes) {
    Map<Address, String> failures = new ConcurrentHashMap<>();
    if (outboxes.isEmpty()) {
      return failures;
    }
    List<Callable<Void>> steps = new ArrayList<>();
    steps.add(() -> sendBundles(outboxes, failures));
    egressBySink(outboxes, failures)
        .forEach(
            (sink, records) ->
                steps.add(
                    () -> {
                      deliverEgress(sink, records, failures);
                      return null;
                    }));
    List<Sent> deadLetters = new ArrayList<>();
    for (PendingOutbox pending : outboxes) {
      for (DeadLetter letter : pending.outbox().getDeadLettersList()) {
        deadLetters.add(new Sent(pending.address(), DeadLetters.message(letter)));
      }
    }
    chunks(deadLetters)
        .forEach(chunk -> steps.add(() -> send(settings.deadLetters, chunk, failures)));
    settings.parallel.all(steps);
    return failures;
  }

  private Void sendBundles(List<PendingOutbox> outboxes, Map<Address, String> failures) {
    Map<Integer, List<Sent>> rounds = new LinkedHashMap<>();
    for (PendingOutbox pending : outboxes) {
      for (OutgoingBundle bundle : pending.outbox().getBundlesList()) {
        rounds
            .computeIfAbsent(bundle.getPart(), p -> new ArrayList<>())
            .add(new Sent(pending.address(), message(pending, bundle)));
      }
    }
    for (int part = 0; rounds.containsKey(part); part++) {
      List<Sent> round = new ArrayList<>();
      for (Sent sent : rounds.get(part)) {
        if (!failures.containsKey(sent.sender)) {
          round.add(sent);
        }
      }
      List<Callable<Void>> requests = new ArrayList<>();
      chunks(round).forEach(chunk -> requests.add(() -> send(settings.queue, chunk, failures)));
      settings.parallel.all(requests);
    }
    return null;
  }

  private static BusMessage message(PendingOutbox pending, OutgoingBundle bundle) {
    Address target = Address.of(TypeName.parse(bundle.getTargetType()), bundle.getTargetId());
    String body =
        QueueBodyCodec.bundle(
            pending.address(),
            pending.outbox().getIncarnation(),
            pending.version(),
            bundle.getPart(),
            target,
            bundle.getPayloadsList());
    String id =
        pending.address()
            + "|"
            + pending.outbox().getIncarnation()
            + "|"
            + pending.version()
            + "|"
            + target
            + "|"
            + bundle.getPart();
    return new BusMessage(QueueIds.groupId(target), "b-" + QueueIds.sha256(id), body);
  }

  private Map<EgressSink, List<Routed>> egressBySink(
      List<PendingOutbox> outboxes, Map<Address, String> failures) {
    Map<EgressSink, List<Routed>> bySink = new LinkedHashMap<>();
    for (PendingOutbox pending : outboxes) {
      List<OutgoingEgress> egress = pending.outbox().getEgressList();
      for (int i = 0; i < egress.size(); i++) {
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
              .add(new Routed(pending.address(), routed.record()));
        } catch (IllegalArgumentException e) {
          // The routes changed since the commit: keep the record until they take it again.
          failures.put(pending.address(), e.getMessage());
        }
      }
    }
    return bySink;
  }

  /** {@code <address>:<incarnation>:<version>:<index>}: the same on every delivery, unique. */
  private static String recordId(PendingOutbox pending, int index) {
    return pending.address()
        + ":"
        + Long.toHexString(pending.outbox().getIncarnation())
        + ":"
        + pending.version()
        + ":"
        + index;
  }

  private static void deliverEgress(
      EgressSink sink, List<Routed> routed, Map<Address, String> failures) {
    List<EgressRecord> records = new ArrayList<>();
    routed.forEach(r -> records.add(r.record));
    try {
      sink.deliver(records);
    } catch (RuntimeException e) {
      routed.forEach(
          r -> failures.put(r.sender, "egress to " + sink + " failed: " + e.getMessage()));
    }
  }

  private static Void send(MessageBus bus, List<Sent> chunk, Map<Address, String> failures) {
    List<BusMessage> messages = new ArrayList<>();
    chunk.forEach(sent -> messages.add(sent.message));
    try {
      bus.send(messages);
    } catch (BusException e) {
      e.failedIndices().forEach(i -> failures.put(chunk.get(i).sender, e.getMessage()));
    } catch (RuntimeException e) {
      chunk.forEach(sent -> failures.put(sent.sender, "sending to " + bus + " failed: " + e));
    }
    return null;
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

  private record Sent(Address sender, BusMessage message) {}

  private record Routed(Address sender, EgressRecord record) {}
}
