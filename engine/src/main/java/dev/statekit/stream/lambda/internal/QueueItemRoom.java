package dev.statekit.stream.lambda.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Room in a key's item for a queue batch's messages: a key keeps each applied message's pending
 * entry and outputs in its item (DynamoDB's 400 KB, its state included) until they are delivered,
 * so the messages that would take it past are answered as failed, and the queue hands them over
 * again (its redrive policy keeps them, whole, after {@code maxReceiveCount}).
 */
final class QueueItemRoom {
  /** A message to hand back: its index among the pass's inputs, and why. */
  record Back(int input, String why) {}

  private final BatchContext context;
  private final KeyedPass.Keys keys;
  private final IntFunction<String> groups;

  QueueItemRoom(BatchContext context, KeyedPass.Keys keys, IntFunction<String> groups) {
    this.context = context;
    this.keys = keys;
    this.groups = groups;
  }

  /**
   * A queue's messages whose outputs and entries a key's item cannot keep beside its state until
   * they are delivered (DynamoDB's 400 KB an item), those that take the most first, with the later
   * messages of their order group, handed back as failed: the queue hands them over again and,
   * after its {@code maxReceiveCount}, its redrive policy keeps them, whole, in the dead-letter
   * queue, while the batch's other messages are applied. A message's share of what the batch grew
   * the key's state by counts in what it takes. Empty if every key's item fits.
   */
  List<Back> handBack(List<KeyedInput> inputs, Map<String, KeyWork> works, BatchTable table) {
    List<Back> back = new ArrayList<>();
    // Messages going back, with their group's later messages and their parts on other keys: they
    // leave every key's measure.
    Set<String> gone = new HashSet<>();
    for (KeyWork work : works.values()) {
      byte[] state = work.touched ? table.stateOf(work.encoded) : null;
      if (!work.touched || surelyFits(work, state)) {
        continue;
      }
      int excess = excess(work, state, gone);
      if (excess <= 0) {
        continue;
      }
      List<Integer> order = new ArrayList<>();
      Map<String, Long> footprint = new HashMap<>();
      for (int i = 0; i < inputs.size(); i++) {
        String id = inputs.get(i).offset();
        if (inputs.get(i).encoded().equals(work.encoded)
            && work.appliedIds.contains(id)
            && !gone.contains(id)) {
          order.add(i);
          footprint.put(id, footprint(work, id));
        }
      }
      if (order.isEmpty()) {
        continue;
      }
      // What the batch's messages grew the state by, shared among them: which message grew it is
      // not known, and the measure cannot take it back without running the key again; so when the
      // state grew, the estimate decides and the next pass, without these messages, measures.
      long stored = work.item == null || work.item.state() == null ? 0 : work.item.state().length;
      long growth = Math.max(0, (state == null ? 0 : state.length) - stored);
      for (int i : order) {
        footprint.merge(inputs.get(i).offset(), growth / order.size(), Long::sum);
      }
      // Those that take the most first; of equals, those nearest either end of the key's messages
      // (one message that grew the state, first or last, goes back in the first round), the later
      // first.
      Map<Integer, Integer> position = new HashMap<>();
      for (int k = 0; k < order.size(); k++) {
        position.put(order.get(k), Math.min(k, order.size() - 1 - k));
      }
      List<Integer> byFootprint = new ArrayList<>(order);
      byFootprint.sort(
          java.util.Comparator.comparing((Integer i) -> footprint.get(inputs.get(i).offset()))
              .reversed()
              .thenComparing(position::get)
              .thenComparing(java.util.Comparator.<Integer>reverseOrder()));
      Set<String> without = gone;
      // With growth the estimate may be far off (one message may have grown it all): at least a
      // sixteenth of the key's messages go back a pass, so that the passes stay few.
      int least = growth > 0 ? (order.size() + 15) / 16 : 1;
      int handed = 0;
      for (int i : byFootprint) {
        if (excess <= 0 && handed >= least) {
          break;
        }
        String id = inputs.get(i).offset();
        if (without.contains(id)) {
          continue;
        }
        back.add(new Back(i, tooLargeWhy(work, id, footprint.get(id))));
        handed++;
        // The message goes back with the later messages of its group: they leave the item too.
        String group = groups.apply(inputs.get(i).source());
        long freed = 0;
        for (int j = i; j < inputs.size(); j++) {
          String other = inputs.get(j).offset();
          if (other.equals(id)
              || (group != null && group.equals(groups.apply(inputs.get(j).source())))) {
            if (without.add(other) && footprint.containsKey(other)) {
              freed += footprint.get(other);
            }
          }
        }
        excess -= freed;
        if (excess <= 0 && growth == 0) {
          excess = excess(work, state, without); // the estimate said so: measure
        }
      }
    }
    return back;
  }

  /**
   * Outputs past this many bytes fit no item of the key beside the state it had before the batch (a
   * batch that shrinks the state first hands such a message back once too often).
   */
  int neverKept(KeyWork work) {
    return ItemLimit.MAX_BYTES
        - ItemLimit.size(
            context.pipeline(),
            context.shape().keyedOperator(),
            work.encoded,
            work.item == null ? null : work.item.state(),
            null);
  }

  /** How many bytes the key's item would be past DynamoDB's limit without the messages given. */
  private int excess(KeyWork work, byte[] state, Set<String> without) {
    return ItemLimit.size(
            context.pipeline(),
            context.shape().keyedOperator(),
            work.encoded,
            state,
            keys.keep(work, copyOf(work.book), without))
        - ItemLimit.MAX_BYTES;
  }

  /** About the bytes the message's entry and outputs take in the key's item, at most. */
  private long footprint(KeyWork work, String id) {
    long bytes = 3L * KeyBook.entrySize(context.split(), id);
    bytes += 3L * StoredOutput.sizeAll(work.outbox.getOrDefault(id, List.of()));
    return bytes;
  }

  String tooLargeWhy(KeyWork work, String id, long bytes) {
    return "Message "
        + id
        + " of "
        + context.split()
        + " comes again: with its outputs, its entry and its share of what the batch grew the"
        + " state by, it takes about "
        + bytes
        + " bytes of key "
        + work.key
        + "'s item, which cannot keep them beside the key's state until its outputs are delivered"
        + " (DynamoDB's 400 KB an item); after the queue's maxReceiveCount its redrive policy keeps"
        + " it in the dead-letter queue. Send large data elsewhere (e.g. S3) and a reference"
        + " through the output, and keep less per key";
  }

  /**
   * Whether the key's item surely fits, by a bound that costs no encoding: the stored bookkeeping,
   * this batch's messages' entries and outputs at three bytes a character, and room for marks.
   */
  private boolean surelyFits(KeyWork work, byte[] state) {
    long bound =
        ItemLimit.size(
                context.pipeline(), context.shape().keyedOperator(), work.encoded, state, null)
            + (work.item == null || work.item.bookkeeping() == null
                ? 0
                : work.item.bookkeeping().length)
            + 3L * work.outboxBytes
            + 16 * 1024;
    for (String id : work.appliedIds) {
      bound += 3L * KeyBook.entrySize(context.split(), id);
    }
    return bound <= ItemLimit.MAX_BYTES;
  }

  private static KeyBook copyOf(KeyBook book) {
    byte[] bytes = book.encode();
    return bytes == null ? new KeyBook() : KeyBook.decode(bytes);
  }
}
