package dev.statekit.stream.lambda;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.DeadLetter;
import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the deferred-output tests share: a queue pipeline "counts" (per key a running count, one
 * output "key:count" per message "key") on an in-memory store, a sink that goes down, and batches
 * of messages "m-n".
 */
final class DeferredFixture {
  static final String PIPELINE = "counts";
  static final String QUEUE = "orders";
  static final Duration RETENTION = Duration.ofHours(1);

  final ManualClock clock = new ManualClock(1_000_000);
  final InMemoryBatchStore memory = new InMemoryBatchStore(clock);
  final List<String> delivered = new ArrayList<>();
  final FlakySink sink;

  /** A sink that takes every record, or refuses (when up) those starting with "big". */
  DeferredFixture() {
    this.sink =
        new FlakySink(
            records -> {
              for (EgressRecord record : records) {
                if (record.textOrBase64().startsWith("big")) {
                  throw dev.statekit.egress.EgressException.refusing(
                      record.id(), "the record is too large");
                }
              }
              synchronized (delivered) {
                records.stream().map(EgressRecord::textOrBase64).forEach(delivered::add);
              }
            });
  }

  /** The counting plan, its outputs to {@code to}. */
  static Pipeline counts(EgressSink to) {
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8) + ":1")
        .keyBy(value -> value.split(":")[0])
        .reduce(DeferredFixture::add, Serdes.string())
        .to(EgressOutput.to(to, TypeName.of("test", "counts"), Types.stringType()));
  }

  /**
   * The counting plan behind a stateless stage that sends a message "bad..." to {@code deadLetters}
   * as "dead:bad...", the counts to {@code counts}.
   */
  static Pipeline countsWithDeadLetters(EgressSink deadLetters, EgressSink counts) {
    Type<DeadLetter<String>> deadLetterType =
        Types.simple(
            TypeName.of("test", "dead-letter"),
            d -> ("dead:" + d.record().value()).getBytes(StandardCharsets.UTF_8),
            b -> {
              throw new UnsupportedOperationException();
            });
    return Pipeline.from(BatchSource.records())
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
        .<String>process(
            "check",
            (record, out) -> {
              if (record.value().startsWith("bad")) {
                throw new IllegalArgumentException("bad input");
              }
              out.collect(record.value() + ":1");
            },
            FailurePolicy.deadLetter(
                EgressOutput.to(deadLetters, TypeName.of("test", "dead-letters"), deadLetterType)))
        .keyBy(value -> value.split(":")[0])
        .reduce(DeferredFixture::add, Serdes.string())
        .to(EgressOutput.to(counts, TypeName.of("test", "counts"), Types.stringType()));
  }

  /** "key:n" plus "key:m" is "key:n+m". */
  private static String add(String a, String b) {
    return a.split(":")[0]
        + ":"
        + (Long.parseLong(a.split(":")[1]) + Long.parseLong(b.split(":")[1]));
  }

  /** A builder of {@code plan} on {@code store}, by this fixture's clock and retention. */
  BatchPipeline.Builder builder(Pipeline plan, BatchStore store) {
    return BatchPipeline.builder(PIPELINE, plan)
        .store(store)
        .clock(clock)
        .retention(RETENTION)
        .batchTimeout(Duration.ofMinutes(1));
  }

  /** The counting pipeline on {@code store}, its outputs to the fixture's sink. */
  BatchPipeline pipeline(BatchStore store) {
    return builder(counts(sink), store).build();
  }

  /** A batch of messages "m-<first>"..., one per key given, in FIFO group {@code group} or none. */
  static SourceBatch messages(int first, String group, String... keys) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (int i = 0; i < keys.length; i++) {
      batch.add(
          "m-" + (first + i),
          1_000_000,
          keys[i].getBytes(StandardCharsets.UTF_8),
          group == null ? Map.of() : Map.of(SourceBatch.ORDER_GROUP, group));
    }
    return batch.build();
  }

  /** The queue's deferred messages' ids, in order. */
  List<String> deferredIds() {
    return memory.deferred(PIPELINE, QUEUE, 1_000).stream().map(DeferredMessage::message).toList();
  }

  /** Drops the receipts past their expiry, as DynamoDB's TTL does some time after it. */
  void expireReceipts() {
    Map<String, byte[]> filler = new HashMap<>();
    for (int i = 0; i <= 10_000; i++) {
      filler.put("filler-" + i, new byte[0]);
    }
    // The in-memory store sweeps expired receipts every 10,000 receipt writes.
    memory.writeReceipts("other", "other", filler, 1);
  }
}
