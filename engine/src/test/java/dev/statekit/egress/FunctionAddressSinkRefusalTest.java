package dev.statekit.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A record too large for a queue message refuses the whole call before anything is sent: the
 * records before it, sent in an earlier request of the call, went out again when the refused call
 * was then delivered record by record.
 */
class FunctionAddressSinkRefusalTest {
  @Test
  void aRefusedRecordRefusesTheCallBeforeAnyRecordIsSent() {
    InMemoryMessageBus queue = new InMemoryMessageBus(Clock.systemUTC(), Duration.ofSeconds(30));
    Address target = Address.of(TypeName.of("app", "total"), "t");
    FunctionAddressSink sink = new FunctionAddressSink(target, queue);
    Address source = Address.of(TypeName.of("app", "source"), "s");
    List<EgressRecord> records = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      String value = i == 10 ? "x".repeat(300_000) : "v" + i;
      records.add(
          EgressRecord.builder(
                  "r" + i,
                  TypeName.of("app", "out"),
                  source,
                  "io.statefun.types/string",
                  value.getBytes(StandardCharsets.UTF_8))
              .build());
    }

    EgressException refused = assertThrows(EgressException.class, () -> sink.deliver(records));

    assertEquals("r10", refused.refusedRecordId().orElse(null));
    assertEquals(0, queue.size(), "nothing of the refused call was sent");
  }
}
