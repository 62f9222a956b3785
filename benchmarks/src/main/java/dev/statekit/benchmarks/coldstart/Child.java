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
 * entry point that only counts DynamoDB Streams records), payload file, {@code prime}, {@code cold}
 * or {@code train}: construct and prime only, then exit, so that a JVM started with {@code
 * -XX:ArchiveClassesAtExit} writes the class archive of what construction and priming loaded.
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
    boolean train = args[2].equals("train");
    if ((train || args[2].equals("prime")) && handler instanceof org.crac.Resource resource) {
      resource.beforeCheckpoint(null);
    }
    long primed = System.nanoTime();
    if (train) {
      System.out.println(
          "DONE construct_ns="
              + (constructed - start)
              + " prime_ns="
              + (primed - constructed)
              + " invoke_ns=0 answer=0");
      System.out.flush();
      // The dynamic archive is written at a normal exit; the runtime's threads would hold it off.
      System.exit(0);
    }
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
