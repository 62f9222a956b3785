package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory queue keeps SQS FIFO's rules. */
class InMemoryMessageBusTest {
  private Instant now = Instant.parse("2030-01-01T00:00:00Z");
  private final InMemoryMessageBus queue =
      new InMemoryMessageBus(
          new Clock() {
            @Override
            public java.time.ZoneId getZone() {
              return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
              return this;
            }

            @Override
            public Instant instant() {
              return now;
            }
          },
          Duration.ofSeconds(30));

  @Test
  void aGroupIsHandedOutInOrderAndNeverWhileInFlight() {
    send("a", "a1", "a2", "a3");
    send("b", "b1");

    List<InMemoryMessageBus.Received> first = queue.receive(2);
    List<InMemoryMessageBus.Received> second = queue.receive(10);

    assertEquals(List.of("a1", "a2"), bodies(first));
    assertEquals(List.of("b1"), bodies(second), "group a is blocked while a1 and a2 are out");
    queue.delete(first.get(0).receiptHandle());
    queue.delete(first.get(1).receiptHandle());
    assertEquals(List.of("a3"), bodies(queue.receive(10)));
  }

  @Test
  void anUndeletedMessageComesBackWithItsReceiveCountRaised() {
    send("a", "a1");
    InMemoryMessageBus.Received first = queue.receive(1).get(0);

    assertEquals(List.of(), queue.receive(1));
    now = now.plusSeconds(31);
    InMemoryMessageBus.Received again = queue.receive(1).get(0);

    assertEquals(1, first.message().receiveCount());
    assertEquals(2, again.message().receiveCount());
    assertFalse(queue.delete(first.receiptHandle()), "the first receipt is stale");
    assertTrue(queue.delete(again.receiptHandle()));
    assertEquals(0, queue.size());
  }

  @Test
  void aRepeatedDeduplicationIdIsDroppedForFiveMinutes() {
    queue.send(List.of(new BusMessage("g", "same", "first")));
    queue.send(List.of(new BusMessage("g", "same", "repeat")));
    now = now.plusSeconds(301);
    queue.send(List.of(new BusMessage("g", "same", "later")));

    assertEquals(List.of("first", "later"), bodies(queue.receive(10)));
  }

  @Test
  void sequenceNumbersGrowAndBatchesAreBounded() {
    send("g", "1", "2");

    List<InMemoryMessageBus.Received> received = queue.receive(10);

    assertTrue(
        Long.parseLong(received.get(1).message().sequenceNumber())
            > Long.parseLong(received.get(0).message().sequenceNumber()));
    List<BusMessage> eleven = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      eleven.add(new BusMessage("g", "d" + i, "x"));
    }
    assertThrows(IllegalArgumentException.class, () -> queue.send(eleven));
  }

  private void send(String group, String... bodies) {
    List<BusMessage> messages = new ArrayList<>();
    for (String body : bodies) {
      messages.add(new BusMessage(group, group + "-" + body, body));
    }
    queue.send(messages);
  }

  private static List<String> bodies(List<InMemoryMessageBus.Received> received) {
    return received.stream().map(r -> r.message().body()).toList();
  }
}
