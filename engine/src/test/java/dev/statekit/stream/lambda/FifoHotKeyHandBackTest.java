package dev.statekit.stream.lambda;

import static dev.statekit.stream.lambda.HotKeys.await;
import static dev.statekit.stream.lambda.HotKeys.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.egress.EgressRecord;
import dev.statekit.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * SQS FIFO, two message groups on a hot key with large outputs (32 KB: the key's share holds four),
 * some messages keyed to two keys ("hot+x"), and every batch's write of the hot key conflicting
 * with another invocation (group g3) that wrote it and stopped before its receipts. Messages are
 * handed back for room, with the later messages of their group. Checked: every message applied once
 * to each of its keys, one value per output id, and per key the messages of a group applied in
 * group order (a later message never before an earlier handed-back one).
 */
class FifoHotKeyHandBackTest {
  private static final String QUEUE = "orders.fifo";
  private static final int PAD = 32_000;

  private final ManualClock clock = new ManualClock(1_000_000);
  private final List<EgressRecord> every = Collections.synchronizedList(new ArrayList<>());

  private BatchPipeline counts(BatchStore store, BatchFaultHook hook) {
    return HotKeys.paddedPairCounts("fifo", store, clock, every, PAD, hook);
  }

  private record Message(String id, String group, String keys) {}

  private SourceBatch batch(List<Message> messages) {
    SourceBatch.Builder batch = SourceBatch.unordered(QUEUE);
    for (Message m : messages) {
      batch.add(
          m.id(),
          clock.millis(),
          (m.id() + ":" + m.keys()).getBytes(StandardCharsets.UTF_8),
          Map.of(SourceBatch.ORDER_GROUP, m.group()));
    }
    return batch.build();
  }

  @Test
  void groupsHandedBackForRoomKeepTheirOrderOnEveryKey() throws Exception {
    InMemoryBatchStore store = new InMemoryBatchStore(clock);
    List<Message> all = new ArrayList<>();
    String[] g1 = {"hot", "hot", "hot+x", "x", "hot", "x", "hot+x", "hot", "x", "hot"};
    String[] g2 = {"x", "hot", "hot+x", "hot", "x", "hot", "hot", "hot+x", "x", "hot"};
    for (int i = 0; i < g1.length; i++) {
      all.add(new Message("g1-" + i, "g1", g1[i]));
      all.add(new Message("g2-" + i, "g2", g2[i]));
    }
    BatchPipeline other = counts(store, BatchFaultHook.NONE);
    List<Message> waiting = new ArrayList<>(all);
    List<Object> answers = new ArrayList<>();
    int[] round = {0};
    List<Thread> others = new ArrayList<>();
    List<CountDownLatch> releases = new ArrayList<>();
    for (int r = 0; r < 30 && !waiting.isEmpty(); r++) {
      round[0] = r;
      CountDownLatch bFlushed = new CountDownLatch(1);
      CountDownLatch bGo = new CountDownLatch(1);
      BatchPipeline b =
          counts(
              store,
              (step, detail) -> {
                if (step == BatchFaultHook.Step.DELIVERY) {
                  bFlushed.countDown();
                  await(bGo);
                }
              });
      AtomicReference<Object> bResult = new AtomicReference<>();
      BatchFaultHook aHook =
          (step, detail) -> {
            if (step == BatchFaultHook.Step.LOADED) {
              // Group g3 on another invocation writes "hot" meanwhile and stops before receipts.
              Thread t =
                  new Thread(
                      () ->
                          bResult.set(
                              run(
                                  b,
                                  batch(
                                      List.of(
                                          new Message("g3-" + round[0] + "a", "g3", "hot"),
                                          new Message("g3-" + round[0] + "b", "g3", "hot+x"))))));
              t.start();
              others.add(t);
              await(bFlushed);
            }
          };
      BatchPipeline a = counts(store, aHook);
      Object answer = run(a, batch(waiting));
      bGo.countDown();
      for (Thread t : others) {
        t.join(20_000);
      }
      answers.add(answer + " / g3: " + bResult.get());
      if (answer instanceof RuntimeException) {
        continue; // the whole batch comes again
      }
      BatchResult result;
      List<String> failed =
          "ok".equals(answer)
              ? List.of()
              : List.of(answer.toString().substring(1, answer.toString().indexOf(']')).split(", "));
      List<Message> next = new ArrayList<>();
      for (Message m : waiting) {
        if (failed.contains(m.id())) {
          next.add(m);
        }
      }
      waiting = next;
      clock.advance(Duration.ofSeconds(30));
    }
    assertTrue(waiting.isEmpty(), waiting + " still waiting; answers " + answers);

    // One value per output id; per key, counts 1..n, each message once, groups in order.
    Map<String, TreeMap<Long, String>> applied = HotKeys.appliedPerKey(every, answers);
    for (Map.Entry<String, TreeMap<Long, String>> key : applied.entrySet()) {
      List<String> ids = new ArrayList<>(key.getValue().values());
      assertEquals(ids.size(), key.getValue().lastKey(), "key " + key.getKey() + ": " + ids);
      assertEquals(
          ids.size(), new java.util.HashSet<>(ids).size(), "key " + key.getKey() + ": " + ids);
      for (String group : List.of("g1", "g2")) {
        List<String> ofGroup = ids.stream().filter(id -> id.startsWith(group + "-")).toList();
        List<String> sorted =
            ofGroup.stream()
                .sorted(
                    java.util.Comparator.comparingInt(
                        id -> Integer.parseInt(id.substring(id.indexOf('-') + 1))))
                .toList();
        assertEquals(
            sorted, ofGroup, "key " + key.getKey() + " applied group " + group + " out of order");
      }
    }
    long hot = all.stream().filter(m -> m.keys().contains("hot")).count();
    long x = all.stream().filter(m -> m.keys().contains("x")).count();
    long g3 = applied.get("hot").values().stream().filter(id -> id.startsWith("g3-")).count();
    long g3x = applied.get("x").values().stream().filter(id -> id.startsWith("g3-")).count();
    assertEquals(hot + g3, applied.get("hot").size(), "hot: " + applied.get("hot").values());
    assertEquals(x + g3x, applied.get("x").size(), "x: " + applied.get("x").values());
  }
}
