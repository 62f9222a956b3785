package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.bus.QueueMessage;
import dev.statekit.egress.EgressRoutes;
import dev.statekit.function.Address;
import dev.statekit.function.MessageBuilder;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.ValueSpec;
import dev.statekit.runtime.store.AddressState;
import dev.statekit.telemetry.LogEvent;
import dev.statekit.telemetry.LogLevel;
import dev.statekit.telemetry.LogOutput;
import dev.statekit.telemetry.Telemetry;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Per-value expiry from the value specs: after write, after call; and the item's TTL. */
abstract class ExpiryContract extends RuntimeFixture {

  @Test
  void valuesExpireOnReadAtTheRightTime() {
    FunctionRuntime runtime = runtime();
    Address a = address(TestFunctions.EXPIRING, "e");
    Address b = address(TestFunctions.EXPIRING, "never-written");

    runtime.invoke(command(a, "write:v"));
    clock.advance(Duration.ofMinutes(9).plusSeconds(59));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofSeconds(1));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofMinutes(9).plusSeconds(59));
    runtime.invoke(command(b, "read"));
    runtime.invoke(command(a, "read"));
    clock.advance(Duration.ofMinutes(10));
    runtime.invoke(command(a, "read"));

    assertEquals(
        List.of("v/v", "v/v", "-/v", "-/-", "-/v", "-/-"),
        seen.texts(),
        "after-write expires 10 min after the write; after-call 10 min after the last call");
  }

  @Test
  void theItemCarriesATtlOnlyWhenEverythingInItExpires() {
    FunctionRuntime runtime = runtime();
    Address expiring = address(TestFunctions.EXPIRING, "ttl");
    Address forever = address(TestFunctions.COUNTER, "forever");

    runtime.invoke(command(expiring, "write:v"));
    runtime.invoke(DirectInvocation.of(MessageBuilder.forAddress(forever).withValue(1L).build()));

    AddressState state = store().reload(expiring);
    long valuesExpire = state.values().get(TestFunctions.WRITTEN.name()).expiresAtMillis() / 1000;
    assertTrue(state.expiresAtSeconds() >= valuesExpire, "kept at least as long as its values");
    assertTrue(
        state.expiresAtSeconds() >= clock.millis() / 1000 + Duration.ofDays(14).toSeconds(),
        "and as long as it must remember what it applied");
    assertEquals(0, store().reload(forever).expiresAtSeconds(), "a value that never expires");
  }

  /**
   * An address keeps its item while a delayed message it sent with a token is pending (the token
   * must stay cancellable), and gets its TTL back once the message is delivered, which frees the
   * token from the target's commit. Before, that commit freed the token but left the owner's item
   * without a TTL: every address that ever sent a cancellable message elsewhere and ran no more
   * stayed in the table for good.
   */
  @Test
  void anOwnerWhoseLastTokenAnotherAddressFreedGetsItsTtlBack() {
    FunctionRuntime runtime = runtime();
    Address owner = address(TestFunctions.REMINDER, "owner-ttl");
    runtime.invoke(command(owner, "later:1000:target-ttl-" + run));
    assertEquals(0, store().reload(owner).expiresAtSeconds(), "kept while its token is pending");

    clock.advance(Duration.ofSeconds(2));
    assertEquals(1, runtime.sweepTimers().sent());
    drain(runtime);

    AddressState after = store().reload(owner);
    assertTrue(after.pendingTokens().isEmpty(), "the target's commit freed the token");
    assertTrue(
        after.expiresAtSeconds() > 0,
        "the owner's item expires again once no token is pending: " + after.expiresAtSeconds());
  }

  /**
   * An item whose effects wait for a sink that is down keeps them until their tries are over,
   * whatever the dedup retention: with a retention of a minute, a function without values (its item
   * holds only the outbox) took a TTL of a minute; once TTL deleted the item, the sweep found no
   * outbox to deliver and settled its registration: the egress record was lost, no dead letter.
   */
  @Test
  void anItemKeepsEffectsThatWaitForADownSinkPastAShortDedupRetention() {
    AtomicBoolean down = new AtomicBoolean(true);
    SwitchedSink sink = new SwitchedSink(down);
    FunctionRuntime runtime =
        runtime(
            b ->
                b.dedupRetention(Duration.ofMinutes(1))
                    .egress(EgressRoutes.builder().route(TestFunctions.FIRED, sink).build()));
    Address reminder = address(TestFunctions.REMINDER, "outbox-ttl");
    try {
      runtime.invoke(command(reminder, "fire:1"));
    } catch (RuntimeException sinkDown) {
      // The invoke reports the effects it could not deliver; they wait in the item's outbox.
    }

    clock.advance(Duration.ofMinutes(3));
    AddressState state = store().reload(reminder);
    if (state.expiresAtSeconds() != 0 && state.expiresAtSeconds() <= clock.millis() / 1000) {
      servers().expire(reminder);
    }
    down.set(false);
    runtime.sweepTimers();

    assertEquals(
        List.of(reminder.id() + " fired 1"),
        sink.texts(),
        "the record went out once the sink came back (item TTL was "
            + state.expiresAtSeconds()
            + ", now "
            + clock.millis() / 1000
            + "); dead letters: "
            + deadLetters().peekAll());
  }

  /**
   * Effects whose item is deleted before they go out (by hand, or by a TTL shorter than the runtime
   * sets) cannot be delivered; the sweep says so as an error naming the address, where it settled
   * their registration in silence before.
   */
  @Test
  void theSweepReportsEffectsLostWithTheirItem() {
    AtomicBoolean down = new AtomicBoolean(true);
    SwitchedSink sink = new SwitchedSink(down);
    FunctionRuntime runtime =
        runtime(b -> b.egress(EgressRoutes.builder().route(TestFunctions.FIRED, sink).build()));
    Address reminder = address(TestFunctions.REMINDER, "item-deleted");
    try {
      runtime.invoke(command(reminder, "fire:1"));
    } catch (RuntimeException sinkDown) {
      // The effects wait in the item's outbox.
    }
    servers().expire(reminder);
    down.set(false);
    clock.advance(Duration.ofMinutes(3));
    List<LogEvent> heard = Collections.synchronizedList(new ArrayList<>());

    try (Telemetry.Restore route = LogOutput.route("dev.statekit", heard::add)) {
      runtime.sweepTimers();
    }

    assertEquals(List.of(), sink.texts(), "nothing left to deliver");
    assertTrue(
        heard.stream()
            .anyMatch(
                e ->
                    e.level() == LogLevel.ERROR
                        && e.message().contains(reminder.toString())
                        && e.message().contains("are lost")),
        "the loss is reported: " + heard.stream().map(LogEvent::message).toList());
  }

  static final dev.statekit.types.TypeName KEEPER =
      dev.statekit.types.TypeName.of("test", "keeper");
  static final ValueSpec<Long> KEPT =
      ValueSpec.named("kept")
          .withLongType()
          .thatExpireAfterWrite(Duration.ofMillis(Long.MAX_VALUE));

  /**
   * A value whose expiry lies past the clock's end (a "practically never" duration) never expires,
   * and its batch's other messages are applied. Before, its expiry overflowed and the whole batch
   * threw, settling nothing and telling no one.
   */
  @Test
  void aValueThatWouldExpirePastTheEndOfTimeNeverExpires() {
    StatefulFunctions functions =
        StatefulFunctions.builder()
            .withFunction(
                KEEPER,
                (context, message) ->
                    context.storage().set(KEPT, context.storage().get(KEPT).orElse(0L) + 1),
                KEPT)
            .withFunction(
                TestFunctions.COUNTER,
                TestFunctions::counter,
                TestFunctions.COUNT,
                TestFunctions.SUM)
            .build();
    FunctionRuntime runtime = runtime(b -> {}, functions);
    Address keeper = address(KEEPER, "k");
    Address counter = address(TestFunctions.COUNTER, "neighbour");
    enqueue(MessageBuilder.forAddress(keeper).withValue(1L).build());
    enqueue(MessageBuilder.forAddress(counter).withValue(1L).build());
    List<QueueMessage> batch =
        queue().receive(10).stream().map(QueueSource.Received::message).toList();

    QueueBatchResult result = runtime.processQueueBatch(batch);

    assertEquals(2, result.applied(), result.toString());
    assertEquals(1, value(counter, TestFunctions.COUNT));
    AddressState kept = store().reload(keeper);
    assertEquals(0, kept.values().get(KEPT.name()).expiresAtMillis(), "never expires");
    assertEquals(0, kept.expiresAtSeconds(), "nor does its item");
  }

  /** A duration longer than a long of milliseconds is refused where it is declared, saying so. */
  @Test
  void anExpiryBeyondALongOfMillisecondsIsRefusedWhereDeclared() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ValueSpec.named("forever")
                    .withLongType()
                    .thatExpireAfterCall(ChronoUnit.FOREVER.getDuration()));
    assertTrue(e.getMessage().contains("Expiration.none()"), e.getMessage());
  }

  static DirectInvocation command(Address a, String command) {
    return DirectInvocation.of(MessageBuilder.forAddress(a).withValue(command).build());
  }
}
