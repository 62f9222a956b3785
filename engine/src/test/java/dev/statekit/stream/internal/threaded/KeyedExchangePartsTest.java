package dev.statekit.stream.internal.threaded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.internal.KeyBySpec;
import dev.statekit.stream.internal.Routing;
import dev.statekit.stream.serde.Serdes;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A chunk carries one split for the records it holds as parts: a reader whose records come from
 * several splits hands a chunk over when the split changes, or the worker would make records of one
 * split with another's name (and a restore would skip or repeat them).
 */
class KeyedExchangePartsTest {
  @Test
  void aChunkHoldsPartsOfOneSplitAndMarkersAndRecordsBetweenThem() throws Exception {
    @SuppressWarnings("unchecked")
    BlockingQueue<Chunk>[] queues = new BlockingQueue[] {new ArrayBlockingQueue<Chunk>(16)};
    KeyedExchange exchange =
        new KeyedExchange(
            new KeyBySpec(Function.identity(), 1, Serdes.auto(), "keyBy"),
            false,
            new Routing(1, Serdes.auto()),
            queues,
            0,
            8);
    exchange.emitParts("a", 0, "x", 10);
    exchange.emitParts("a", 1, "y", 11);
    exchange.barrier(7);
    exchange.emitParts("b", 0, "z", 20);
    exchange.flush();

    Chunk first = next(queues[0]);
    assertEquals("a", first.split);
    assertEquals(3, first.size, "two parts, then the barrier, whose broadcast hands it over");
    assertTrue(first.parts[0] && first.parts[1]);
    assertEquals(1, first.offsets[1]);
    assertEquals(11, first.timestamps[1]);
    assertEquals("y", first.keys[1]);
    assertFalse(first.parts[2], "the barrier is a marker, not a record's parts");
    Chunk second = next(queues[0]);
    assertEquals("b", second.split);
    assertEquals(1, second.size);
    assertNull(queues[0].poll());

    // The first chunk comes back and is refilled: its slots must not keep the old parts' flags.
    first.recycle();
    exchange.barrier(8);
    Chunk recycled = next(queues[0]);
    assertTrue(recycled == first, "the processed chunk is refilled");
    assertNull(recycled.split);
    assertFalse(recycled.parts[0], "a marker in a slot that held a record's parts");
  }

  @Test
  void aNewSplitStartsTheNextChunk() throws Exception {
    @SuppressWarnings("unchecked")
    BlockingQueue<Chunk>[] queues = new BlockingQueue[] {new ArrayBlockingQueue<Chunk>(16)};
    KeyedExchange exchange =
        new KeyedExchange(
            new KeyBySpec(Function.identity(), 1, Serdes.auto(), "keyBy"),
            false,
            new Routing(1, Serdes.auto()),
            queues,
            0,
            8);
    exchange.emitParts("a", 5, "x", 1);
    exchange.emitParts("b", 9, "y", 2);
    exchange.emitParts("b", 10, "z", 3);
    exchange.flush();
    Chunk a = next(queues[0]);
    Chunk b = next(queues[0]);
    assertEquals("a", a.split);
    assertEquals(1, a.size);
    assertEquals("b", b.split);
    assertEquals(2, b.size);
    assertEquals(9, b.offsets[0]);
    assertEquals(10, b.offsets[1]);
  }

  /** The next chunk handed over; fails instead of waiting forever when there is none. */
  private static Chunk next(BlockingQueue<Chunk> queue) throws InterruptedException {
    Chunk chunk = queue.poll(5, TimeUnit.SECONDS);
    assertNotNull(chunk, "a chunk was handed over");
    return chunk;
  }
}
