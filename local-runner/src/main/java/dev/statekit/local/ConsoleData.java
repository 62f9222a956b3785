package dev.statekit.local;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the console's JSON API answers with, from one running application (see {@link ConsoleApi}
 * for the documents). Each call reads afresh.
 */
interface ConsoleData {
  /** The application: functions, egresses, pipelines' graphs, the messages seen between them. */
  ObjectNode overview();

  /** The queues' depths and the dead letters, each with its error. */
  ObjectNode queues();

  /** Each pipeline's splits (position, watermark, idleness) and totals. */
  ObjectNode pipelines();

  /**
   * An address's values, decoded, with their expiry and its pending delayed messages.
   *
   * @throws IllegalArgumentException if it is not an address of a registered function
   */
  ObjectNode address(String address);

  /** The addresses seen so far, most recent last. */
  ObjectNode addresses();

  /** The invocations numbered above {@code after}, oldest first, at most {@code limit}. */
  ObjectNode invocations(long after, int limit);

  /** Per-second counts for the charts. */
  ObjectNode metrics();

  /**
   * Takes dead letter {@code id} off the dead-letter queue and puts it on the ingress queue, as it
   * was or as {@code body} (an ingress envelope: a fixed copy).
   *
   * @throws IllegalArgumentException if there is no such dead letter, or {@code body} is not an
   *     ingress envelope
   * @throws IllegalStateException if this console is read only
   */
  ObjectNode resend(String id, String body);
}
