package dev.statekit.benchmarks.coldstart;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.entry.EntryPoint;
import dev.statekit.event.BatchOutcome;
import dev.statekit.handlers.StateKitHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs in a fresh JVM with only the examples' jar (and this class) on the classpath: constructs the
 * handler as Lambda does, optionally primes it as SnapStart's checkpoint hook does, invokes it once
 * with the payload and prints the timings. Arguments: handler class (or {@code counting} for an
 * entry point that only counts DynamoDB Streams records), payload file, {@code prime} or {@code
 * cold}.
 */
public final class Child {
  private Child() {}

  /** Entry point of the child JVM. */
  public static void main(String[] args) throws Exception {
    long start = System.nanoTime();
    RequestStreamHandler handler =
        args[0].equals("counting")
            ? new StateKitHandler(
                EntryPoint.builder()
                    .anyDynamoDbStream(records -> BatchOutcome.allSucceeded())
                    .build())
            : (RequestStreamHandler) Class.forName(args[0]).getConstructor().newInstance();
    long constructed = System.nanoTime();
    if (args[2].equals("prime") && handler instanceof org.crac.Resource resource) {
      resource.beforeCheckpoint(null);
    }
    long primed = System.nanoTime();
    byte[] payload = Files.readAllBytes(Path.of(args[1]));
    ByteArrayOutputStream answer = new ByteArrayOutputStream();
    handler.handleRequest(new ByteArrayInputStream(payload), answer, null);
    long done = System.nanoTime();
    System.out.println(
        "DONE construct_ns="
            + (constructed - start)
            + " prime_ns="
            + (primed - constructed)
            + " invoke_ns="
            + (done - primed)
            + " answer="
            + answer.size());
    System.out.flush();
  }
}
