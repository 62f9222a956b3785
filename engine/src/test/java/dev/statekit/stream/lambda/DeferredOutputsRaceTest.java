package dev.statekit.stream.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressException;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Second review of the deferred outputs ({@link DeferredMessage}): a tick that runs between a
 * batch's two deferral writes, a batch that drains the last full page, and a batch whose only
 * failed delivery is a dead letter's.
 */
class DeferredOutputsRaceTest {
  private static final String QUEUE = DeferredFixture.QUEUE;
  private static final Duration RETENTION = DeferredFixture.RETENTION;

  private final DeferredFixture fixture = new DeferredFixture();
  private final ManualClock clock = fixture.clock;
  private final InMemoryBatchStore memory = fixture.memory;
  private final List<String> delivered = fixture.delivered;
  private final FlakySink sink = fixture.sink;

  private BatchPipeline pipeline(BatchStore store) {
    return fixture.pipeline(store);
  }

  private BatchPipeline.Builder builder(Pipeline plan, BatchStore store) {
    return fixture.builder(plan, store);
  }

  private static SourceBatch messages(int first, String group, String... keys) {
    return DeferredFixture.messages(first, group, keys);
  }

  private void expireReceipts() {
    fixture.expireReceipts();
  }

  private List<String> deferredIds() {
    return fixture.deferredIds();
  }

  /**
   * The tick (another invocation) runs between a deferring batch's two writes, its receipts' long
   * expiry and its entries. Written the other way round (the entries first, then the receipts
   * without an expiry), the tick delivered the outputs, gave the receipt the retention's expiry and
   * deleted the entry, and the batch's write then took the expiry away: the receipt stayed in the
   * table forever. Now the tick finds no entry yet, and the drain after the entries sets the
   * retention's expiry last.
   */
  @Test
  void aTickBetweenABatchsTwoDeferralWritesLeavesNoReceiptWithoutAnExpiry() {
    BatchPipeline tick = pipeline(memory);
    AtomicBoolean raced = new AtomicBoolean();
    BatchStore racing =
        new ForwardingBatchStore(memory) {
          @Override
          public void writeReceipts(
              String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
            super.writeReceipts(pipeline, split, receipts, expiresAt);
            if (expiresAt * 1000 > clock.millis() + 2 * RETENTION.toMillis()
                && !raced.getAndSet(true)) {
              // The deferral's first write; the sink is back, and the scheduled tick runs in
              // another invocation right now, before the entries are written.
              sink.up();
              tick.tick();
            }
          }

          @Override
          public void putDeferred(String pipeline, String split, List<DeferredMessage> messages) {
            super.putDeferred(pipeline, split, messages);
            if (raced.get()) {
              tick.tick(); // and again once they are
            }
          }
        };
    BatchPipeline pipeline = pipeline(racing);
    sink.down();

    assertTrue(pipeline.process(messages(1, null, "a")).succeeded());
    assertTrue(raced.get(), "the tick ran between the two writes");
    assertEquals(List.of("a:1"), delivered, "the tick delivered the deferred output");
    assertEquals(List.of(), deferredIds(), "and deleted its entry");

    // Long after the outputs went out, nothing of m-1 is left.
    clock.advance(RETENTION.multipliedBy(3));
    tick.tick();
    expireReceipts();
    assertEquals(
        Set.of(),
        memory.readReceipts("counts", QUEUE, List.of("m-1")).keySet(),
        "m-1's receipt outlived the retention by three times though its outputs went out: the"
            + " batch wrote it without an expiry after the tick had drained its entry, so it is"
            + " never deleted (one leaked receipt per such race)");
  }

  /**
   * A batch of an order group that finds exactly one full page (100) of deferred messages delivers
   * them all, and then has nothing left before it; it need not defer its own outputs to the tick.
   */
  @Test
  void aBatchThatDrainsTheLastFullPageDeliversItsOwnOutputs() {
    BatchPipeline pipeline = pipeline(memory);
    String[] keys = new String[100];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "k" + i;
    }
    sink.down();
    assertTrue(pipeline.process(messages(1, null, keys)).succeeded());
    assertEquals(100, deferredIds().size());

    sink.up();
    assertTrue(pipeline.process(messages(101, "g", "z")).succeeded());

    assertEquals(
        List.of(),
        deferredIds(),
        "the sink is up and the page was the last one, yet the batch took itself for behind and"
            + " deferred m-101: its output waits for the tick");
    assertEquals(101, delivered.size(), "the 100 deferred outputs, then m-101's own");
  }

  /**
   * A queue's batch whose sink is down, with one message that fails in a stateless stage and goes
   * to a dead-letter output on that sink. Such outputs are kept nowhere (no receipt holds them), so
   * their sink's failure still fails the batch; but it is delivered before any key is written, so
   * the batch fails with nothing applied. Delivered beside the keys' writes, it failed the batch
   * after m-2 was applied: handed back until the queue moved it, applied, to the dead-letter queue.
   */
  @Test
  void aStatelessOutputsSinkDownFailsTheBatchBeforeAnyKeyIsApplied() {
    Pipeline counts = DeferredFixture.countsWithDeadLetters(sink, sink);
    BatchPipeline pipeline = builder(counts, memory).build();
    sink.down();
    // Without a bad message, the batch answers its applied message done and defers its output.
    assertTrue(pipeline.process(messages(1, null, "a")).succeeded());

    List<String> written = new ArrayList<>();
    BatchPipeline watched =
        builder(
                counts,
                new ForwardingBatchStore(memory) {
                  @Override
                  public Set<String> writeKeys(
                      String pipeline, String operator, List<KeyWrite> writes) {
                    writes.forEach(w -> written.add(w.key()));
                    return super.writeKeys(pipeline, operator, writes);
                  }
                })
            .build();
    assertThrows(EgressException.class, () -> watched.process(messages(2, null, "b", "bad")));
    assertEquals(List.of(), written, "no key applied m-2 before its batch failed");
  }

  /**
   * A batch of an order group behind several pages of deferred messages stops draining them once
   * its deadline would stop its keyed pass, and defers its own behind the rest: draining every page
   * whatever the time, it could run past its invocation's timeout, to be cut off and tried again.
   */
  @Test
  void aBatchBehindManyPagesDrainsOnlyWhatItsDeadlineLeavesTimeFor() {
    BatchPipeline pipeline = pipeline(memory);
    String[] keys = new String[250];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "k" + i;
    }
    sink.down();
    assertTrue(pipeline.process(messages(1, null, keys)).succeeded());
    assertEquals(250, deferredIds().size());
    sink.up();

    // The batch's reads come back when its deadline has passed (a slow store, say).
    BatchPipeline late =
        builder(DeferredFixture.counts(sink), memory)
            .faultHook(
                (step, detail) -> {
                  if (step == BatchFaultHook.Step.LOADED) {
                    try {
                      Thread.sleep(300);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }
                })
            .build();
    BatchResult result =
        late.process(messages(251, "g", "z"), dev.statekit.Deadline.after(Duration.ofMillis(200)));

    assertTrue(result.succeeded(), result.toString());
    assertEquals(151, deferredIds().size(), "one page drained, its own deferred behind the rest");
    assertEquals("m-251", deferredIds().get(150));
  }
}
