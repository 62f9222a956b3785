package dev.statekit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.FunctionAddressSink;
import dev.statekit.function.Address;
import dev.statekit.stream.lambda.EgressOutput;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariant 1, exactly once: docs/pipelines.md ("Outputs stay until delivered"): "A sink that
 * writes by id (a DynamoDB table, an SQS FIFO queue, a function address) shows each once", and
 * {@code EgressOutput}'s javadoc says the same of a function address.
 *
 * <p>Schedule: a batch pipeline delivers a per-record output to a {@link FunctionAddressSink}; the
 * batch then fails (another output's sink is down, the split's checkpoint write is throttled, the
 * Lambda times out) and Lambda hands it over again more than five minutes later, or an SQS standard
 * source redelivers the message after deletion and its receipt's outputs "go out again": the same
 * record, same id, is delivered a second time. {@code FunctionAddressSink} puts the record in an
 * ingress envelope WITHOUT an {@code "id"} (EnvelopeCodec.renderText(..., null)), so its only
 * protection is the FIFO queue's five-minute deduplication: past it, the target function applies
 * the output twice. With the record id as the envelope's id the runtime's idempotency keys (7 h)
 * would drop it.
 */
class FunctionAddressSinkRepeatAfterDedupWindowTest extends RuntimeFixture {
  @Test
  void aPipelineOutputDeliveredAgainAfterSixMinutesIsAppliedOnce() {
    FunctionRuntime runtime = runtime();
    Address total = address(TestFunctions.TOTAL, "t");
    FunctionAddressSink sink = new FunctionAddressSink(total, queue().bus());
    EgressRecord record =
        EgressOutput.to(sink, TypeName.of("clicks", "counts"), Types.longType())
            .record(
                "clicks/shardId-000000000000/49590338271490256608559692538361571095921575989136588898/0/0",
                "clicks",
                "k",
                5L);

    sink.deliver(List.of(record));
    drain(runtime);
    assertEquals(1, value(total, TestFunctions.COUNT), "the first delivery applied");

    elapse(Duration.ofMinutes(6));
    sink.deliver(List.of(record)); // the retried batch delivers its kept output again, same id
    drain(runtime);

    assertEquals(
        1,
        value(total, TestFunctions.COUNT),
        "messages the target applied for one output record (id " + record.id() + ")");
  }
}
