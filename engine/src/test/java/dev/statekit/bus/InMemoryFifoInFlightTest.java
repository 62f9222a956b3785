package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SQS FIFO hands out no message of a group while one it handed out is in flight ("inflight messages
 * block delivery of available messages within the same message group", AWS's knowledge center): A
 * and B of one group received together, then A made visible again (ChangeMessageVisibility 0, as a
 * poller does with a failed message), and the next receive returns nothing of the group until B is
 * deleted or visible again. The in-memory queue handed B out again with a new receipt and a raised
 * receive count: the first attempt's delete of B then failed as stale, and B counted towards its
 * redrive sooner than on SQS.
 */
class InMemoryFifoInFlightTest {
  @Test
  void aMessageStillInFlightIsNotHandedOutAgainBehindItsVisibleGroupHead() {
    ManualClock clock = new ManualClock(1_700_000_000_000L);
    InMemoryMessageBus queue = new InMemoryMessageBus(clock, Duration.ofSeconds(60));
    queue.send(List.of(new BusMessage("g", "a", "A"), new BusMessage("g", "b", "B")));
    List<InMemoryMessageBus.Received> first = queue.receive(10);
    assertEquals(List.of("A", "B"), first.stream().map(r -> r.message().body()).toList());

    assertTrue(queue.changeVisibility(first.get(0).receiptHandle(), Duration.ZERO));
    List<InMemoryMessageBus.Received> second = queue.receive(10);

    assertEquals(List.of(), second, "B in flight blocks its group");
    assertTrue(queue.delete(first.get(1).receiptHandle()), "B's receipt is still B's");
    List<InMemoryMessageBus.Received> third = queue.receive(10);
    assertEquals(List.of("A"), third.stream().map(r -> r.message().body()).toList());
  }
}
