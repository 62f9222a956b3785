package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.CheckpointStore;
import dev.statekit.stream.state.StateBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A run that cannot restore its checkpoint (here, a new key serde that cannot read the keys its
 * windows' timers were written with) fails as {@link PipelineFailedException}, the one exception
 * {@link Pipeline#run} documents, naming the pipeline and keeping the cause; the sink writers it
 * had opened are closed. Before, the serde's exception came out of {@code run} raw and the writers
 * stayed open.
 */
class FailedRestoreTest {
  private static final RuntimeException UNREADABLE = new IllegalStateException("schema v1 gone");

  /** Reads nothing back: a serde of another schema than the one the checkpoint was written with. */
  private static final class NewSchema implements Serde<String> {
    @Override
    public byte[] encode(String value) {
      return Serdes.string().encode(value);
    }

    @Override
    public String decode(byte[] bytes) {
      throw UNREADABLE;
    }
  }

  /** Counts its writers opened and closed. */
  private static final class CountingWriters implements Sink<String> {
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();

    @Override
    public SinkWriter<String> open(int subtask, int parallelism) {
      opened.incrementAndGet();
      return new SinkWriter<>() {
        @Override
        public void write(Record<String> record) {}

        @Override
        public void close() {
          closed.incrementAndGet();
        }
      };
    }
  }

  private static Pipeline windows(Serde<String> keys, Sink<String> sink) {
    List<Record<Event>> records = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      records.add(Record.of(new Event("k" + k, 100 + k, 1)));
    }
    return Pipeline.from(Sources.fromRecords(records, 10))
        .withWatermarks(
            WatermarkStrategy.<Event>boundedOutOfOrderness(Duration.ZERO)
                .withTimestamps(Event::time))
        .keyBy(Event::key, 2, keys)
        .window(Windows.tumbling(Duration.ofSeconds(1)))
        .aggregate(
            AggregateFunction.count(),
            Serdes.longs(),
            (String k, TimeWindow w, Long n) -> k + "@" + w.start() + "=" + n)
        .to(sink);
  }

  @Test
  void aRestoreThatCannotReadItsTimersFailsThePipelineAndClosesItsWriters() throws Exception {
    RunOptions.Builder options =
        RunOptions.named("upgraded")
            .parallelism(2)
            .stateBackend(StateBackend.inMemory())
            .checkpointStore(CheckpointStore.inMemory());
    windows(Serdes.string(), Sinks.discard()).run(options.fireWindowsAtEnd(false).build());

    CountingWriters sink = new CountingWriters();
    RunOptions restore = options.fireWindowsAtEnd(true).build();
    PipelineFailedException e =
        assertThrows(
            PipelineFailedException.class, () -> windows(new NewSchema(), sink).run(restore));
    assertSame(UNREADABLE, e.getCause());
    assertTrue(e.getMessage().contains("'upgraded'"), e.getMessage());
    assertTrue(e.getMessage().contains("schema v1 gone"), e.getMessage());
    assertEquals(sink.opened.get(), sink.closed.get(), "every writer opened is closed");
  }
}
