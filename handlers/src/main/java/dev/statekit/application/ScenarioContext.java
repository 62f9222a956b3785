package dev.statekit.application;

import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link Scenario} does to the application the local runner runs: the same calls whichever
 * backend (embedded servers, LocalStack, AWS, memory) is behind it.
 */
public interface ScenarioContext {
  /** Announces the next step: {@code [n/m] title}. */
  void step(String title);

  /** Prints a line under the current step. */
  void say(String line);

  /**
   * Sends a message directly (a direct invoke of the application function with an ingress
   * envelope), as {@code statekit-local send} does.
   *
   * @param address {@code namespace/type/id}
   * @param type the JSON type of {@code value}, or null for a string
   */
  void send(String address, String type, String value);

  /** Puts a message on the ingress queue instead, where the emulated event source polls it. */
  void enqueue(String address, String type, String value);

  /** Waits until every message on the ingress queue has been handled. */
  void awaitIdle() throws InterruptedException;

  /** The records of egress {@code egress} (declared as a queue) since the last call. */
  List<String> takeEgress(TypeName egress);

  /** Dead letters since the last call, each with its error. */
  List<String> takeDeadLetters();

  /** The address's stored values as JSON: {@code {"address": ..., "values": {...}}}. */
  String stateJson(String address);

  /** Prints the address's values on one line. */
  void showState(String address);

  /**
   * Hands {@code records} to pipeline {@code pipeline}: onto the stream it reads, or (in memory) to
   * the function as Kinesis events.
   *
   * @return what was done, for the console
   */
  String feed(String pipeline, List<byte[]> records);

  /**
   * Fires the schedule until the pipeline's event time reaches {@code eventTime} (epoch ms).
   *
   * @return the pipeline's event time then
   * @throws IllegalStateException if it did not within {@code wait}
   */
  long tickUntil(String pipeline, long eventTime, Duration wait) throws Exception;

  /**
   * The value the application function gets for {@code variable} (the template's, the scenario's or
   * the command line's), if set.
   */
  java.util.Optional<String> setting(String variable);
}
