package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.CollectingEgressSink;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.lambda.BatchFaultHook;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.BatchSource;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.BatchStore.KeyWrite;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.stream.lambda.InMemoryBatchStore;
import dev.statekit.stream.lambda.KeyItem;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import dev.statekit.stream.state.ValueState;
import dev.statekit.testing.ManualClock;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A key item of bookkeeping format 2 (outputs by index, 2 bytes a route) near DynamoDB's 400 KB:
 * the first deployment of format 3 keeps its entries' indices in as many bytes, so what fitted
 * still fits. Named by their egress instead (as one version did), 900 entries grew by 34 KB and a
 * shard's retry failed on every try; a queue key's estimate skipped the exact measure and failed
 * its batch.
 */
class FormatTwoItemsTest {
  private static final String SHARD = "orders/shardId-000000000000";
  private static final String QUEUE = "orders-queue";
  private static final TypeName EGRESS = TypeName.of("com.example.orders", "order-line-events");
  private static final StateSpec<ValueState<String>> BLOB =
      StateSpec.value("blob", Serdes.string());

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryBatchStore memory = new InMemoryBatchStore(clock);
  private final AtomicReference<String[]> scope = new AtomicReference<>();
  private final BatchStore store =
      (BatchStore)
          Proxy.newProxyInstance(
              BatchStore.class.getClassLoader(),
              new Class<?>[] {BatchStore.class},
              (proxy, method, args) -> {
                if (method.getName().equals("writeKeys")) {
                  scope.set(new String[] {(String) args[0], (String) args[1]});
                }
                try {
                  return method.invoke(memory, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                  throw e.getCause();
                }
              });
  private final CollectingEgressSink output = new CollectingEgressSink();

  private Pipeline plan() {
    return Pipeline.from(BatchSource.records())
        .map(b -> new String(b, StandardCharsets.UTF_8).split(",", 2))
        .keyBy(parts -> parts[0])
        .<String>process(
            (record, context, out) -> {
              ValueState<String> blob = context.state(BLOB);
              String v = record.value()[1];
              if (v.startsWith("state:")) {
                blob.update("s".repeat(Integer.parseInt(v.substring(6))));
              } else {
                out.collect(v);
              }
            },
            BLOB)
        .to(EgressOutput.to(output, EGRESS, Types.stringType()));
  }

  private BatchPipeline deploy(String split) {
    BatchPipeline pipeline =
        BatchPipeline.builder("legacy", plan())
            .store(store)
            .clock(clock)
            .batchTimeout(Duration.ofMinutes(1))
            .faultHook(BatchFaultHook.NONE)
            .build();
    pipeline.registerSplits(List.of(split));
    return pipeline;
  }

  private KeyItem item() {
    String[] s = scope.get();
    return memory.readKeys(s[0], s[1], List.of("k")).get("k");
  }

  private int itemSize(byte[] state, byte[] book) {
    String[] s = scope.get();
    return ItemLimit.size(s[0], s[1], "k", state, book);
  }

  private static void output(DataOutputStream out, String id) throws IOException {
    output(out, 0, id);
  }

  private static void output(DataOutputStream out, int index, String id) throws IOException {
    out.writeInt(1);
    out.writeShort(index); // format 2: the output's index in the plan
    out.writeUTF(id);
    out.writeUTF("k");
    out.writeBoolean(false);
    out.writeInt(8);
    out.write("abcdefgh".getBytes(StandardCharsets.UTF_8));
  }

  /** Format 2: {@code n} pending messages of the queue (none known receipted), one output each. */
  private byte[] formatTwoPending(int n) throws IOException {
    return formatTwoPending(n, 0);
  }

  /** The same, the outputs of output {@code index}. */
  private byte[] formatTwoPending(int n, int index) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(2);
    out.writeInt(0);
    out.writeInt(0);
    out.writeInt(0);
    out.writeInt(n);
    for (int i = 0; i < n; i++) {
      out.writeUTF(QUEUE);
      out.writeUTF("old-" + i);
      out.writeLong(clock.millis());
      output(out, index, "legacy/" + QUEUE + "/old-" + i + "/0");
    }
    return bytes.toByteArray();
  }

  /** Format 2: the shard's records from 1000 applied (mark), their outputs in the outbox. */
  private byte[] formatTwoOutbox(int n) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(2);
    out.writeInt(1);
    out.writeUTF(SHARD);
    out.writeUTF(Integer.toString(1000 + n - 1));
    out.writeInt(0);
    out.writeInt(n);
    for (int i = 0; i < n; i++) {
      out.writeUTF(SHARD);
      out.writeUTF(Integer.toString(1000 + i));
      out.writeLong(clock.millis());
      output(out, "legacy/" + SHARD + "/" + (1000 + i) + "/0/0");
    }
    out.writeInt(0);
    return bytes.toByteArray();
  }

  /** The bookkeeping as this version writes it again. */
  private static byte[] rewritten(byte[] formatTwo) {
    return KeyBook.decode(formatTwo).encode();
  }

  /**
   * A queue key keeps 1,000 pending messages from a format-2 item within 2 KB of the limit; a new
   * message's 4 KB result does not fit beside them: it is handed back, the batch not failed.
   */
  @Test
  void aQueueMessageThatDoesNotFitBesideARenamedFormatTwoItemIsHandedBack() throws IOException {
    BatchPipeline a = deploy(QUEUE);
    assertTrue(a.process(queue("m0", "k,state:1")).succeeded());
    int overhead = item().state().length - 1;
    byte[] two = formatTwoPending(1000);
    byte[] named = rewritten(two);
    int stateBytes = ItemLimit.MAX_BYTES - 2000 - (itemSize(new byte[0], named)) - 2 - overhead;
    assertTrue(a.process(queue("m00", "k,state:" + stateBytes)).succeeded());
    KeyItem written = item();
    memory.writeKeys(
        scope.get()[0],
        scope.get()[1],
        List.of(new KeyWrite("k", written.version(), written.state(), two, 0)));
    byte[] state = item().state();
    assertEquals(itemSize(state, two), itemSize(state, named), "written again, as large");
    assertTrue(itemSize(state, named) > ItemLimit.MAX_BYTES - 4000, "not with 4 KB more");

    BatchResult result = deploy(QUEUE).process(queue("m1", "k," + "v".repeat(4000)));

    // Handed back (it does not fit beside the named entries) or applied (it fits): never a throw.
    assertTrue(
        result.failedOffsets().isEmpty() || result.failedOffsets().equals(List.of("m1")),
        result.toString());
    assertTrue(
        ItemLimit.size(scope.get()[0], scope.get()[1], "k", item().state(), item().bookkeeping())
            <= ItemLimit.MAX_BYTES);
  }

  /**
   * A shard's batch (records 1000..1899 of key k, one small result each) was written by a version
   * of format 2, which died before delivering; its item fits with 10 KB to spare. The new
   * deployment's retry delivers the 900 kept outputs and the key's item still fits.
   */
  @Test
  void aShardsRetryOfABatchAFormatTwoVersionWroteStillFits() throws IOException {
    BatchPipeline a = deploy(SHARD);
    assertTrue(a.process(shard(1, "k,state:1")).succeeded());
    int overhead = item().state().length - 1;
    int n = 900;
    byte[] two = formatTwoOutbox(n);
    int stateBytes = ItemLimit.MAX_BYTES - 10_000 - itemSize(new byte[0], two) - 2 - overhead;
    assertTrue(a.process(shard(2, "k,state:" + stateBytes)).succeeded());
    KeyItem written = item();
    memory.writeKeys(
        scope.get()[0],
        scope.get()[1],
        List.of(new KeyWrite("k", written.version(), written.state(), two, 0)));
    byte[] state = item().state();
    assertTrue(itemSize(state, two) <= ItemLimit.MAX_BYTES - 9_000, "the format-2 item fits");
    assertEquals(itemSize(state, two), itemSize(state, rewritten(two)), "written again, as large");

    String[] records = new String[n];
    java.util.Arrays.fill(records, "k,x");
    BatchResult retried;
    try {
      retried = deploy(SHARD).process(shard(1000, records));
    } catch (RuntimeException e) {
      throw new AssertionError("the retry of a batch whose item fitted failed: " + e, e);
    }
    assertTrue(retried.succeeded(), retried.toString());
    assertEquals(n, output.records().size());
  }

  /**
   * A key's message pending in a format-2 item names its output by index, one this deployment lacks
   * (it has one output): it goes back alone, as a message whose egress was renamed does, and the
   * batch's other messages are applied; the whole batch failed.
   */
  @Test
  void aPendingFormatTwoOutputOfAnIndexTheDeploymentLacksSendsTheMessageBackAlone()
      throws IOException {
    assertTrue(deploy(QUEUE).process(queue("m0", "k,x")).succeeded());
    KeyItem written = item();
    memory.writeKeys(
        scope.get()[0],
        scope.get()[1],
        List.of(new KeyWrite("k", written.version(), written.state(), formatTwoPending(1, 3), 0)));

    BatchResult result =
        deploy(QUEUE)
            .process(
                SourceBatch.unordered(QUEUE)
                    .add("old-0", clock.millis(), "k,a".getBytes(StandardCharsets.UTF_8))
                    .add("n", clock.millis(), "k,b".getBytes(StandardCharsets.UTF_8))
                    .add("o", clock.millis(), "j,c".getBytes(StandardCharsets.UTF_8))
                    .build());

    assertEquals(List.of("old-0"), result.failedOffsets(), result.toString());
  }

  private SourceBatch queue(String id, String body) {
    return SourceBatch.unordered(QUEUE)
        .add(id, clock.millis(), body.getBytes(StandardCharsets.UTF_8))
        .build();
  }

  private static SourceBatch shard(long first, String... records) {
    SourceBatch.Builder batch = SourceBatch.ordered(SHARD);
    long sequence = first;
    for (String record : records) {
      batch.add(Long.toString(sequence++), 0, record.getBytes(StandardCharsets.UTF_8));
    }
    return batch.build();
  }
}
