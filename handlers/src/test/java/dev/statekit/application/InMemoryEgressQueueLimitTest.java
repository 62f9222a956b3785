package dev.statekit.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.function.Address;
import dev.statekit.handlers.Variables;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An egress declared as a queue ({@code Application.Builder#egress}) is an SQS queue on AWS ({@code
 * SqsEgressSink}), which takes a message of at most 256 KiB, body and attributes: it refuses a
 * larger record by id, in {@code check} and in {@code deliver}, and nothing reaches the queue
 * (EgressSinksIT#anSqsRecordWhoseAttributesTakeItPastTheLimitIsRefusedWithTheReasonAndNothingSent).
 * In memory the same declaration is a {@code CollectingEgressSink}, which takes any record: a
 * function that emits a 300 KB text passes its in-memory test, with the record collected, and on
 * AWS its record never reaches the queue.
 */
class InMemoryEgressQueueLimitTest {
  @Test
  void aRecordPastWhatSqsTakesIsRefusedByTheInMemoryEgressQueueAsOnAws() {
    Application app =
        Application.builder("a")
            .functions(ApplicationTest.echo())
            .egress(ApplicationTest.SAID, "SAID_QUEUE_URL", "the queue")
            .build();
    InMemoryApplication memory = app.inMemory(Variables.of(Map.of()), Clock.systemUTC());
    String big = "x".repeat(QueueIds.MAX_MESSAGE_BYTES + 10_000);

    EgressRecord record =
        EgressRecord.builder(
                "big",
                ApplicationTest.SAID,
                Address.of(TypeName.of("t", "echo"), "ada"),
                "io.statefun.types/string",
                dev.statekit.types.Types.stringType().serialize(big))
            .build();
    assertEquals(
        Optional.of("big"),
        assertThrows(
                EgressException.class,
                () -> memory.egress().get(ApplicationTest.SAID).check(record),
                "SqsEgressSink.check refuses a record past 256 KiB")
            .refusedRecordId());

    memory
        .entryPoint()
        .invoke(
            ("{\"target\":\"t/echo/ada\",\"typename\":\"io.statefun.types/string\",\"value\":\""
                    + big
                    + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(
        List.of(),
        memory.egress().get(ApplicationTest.SAID).texts(),
        "on AWS the queue never gets a record past 256 KiB");
  }
}
