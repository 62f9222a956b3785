package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.SourcePosition;
import dev.statekit.stream.lambda.Attempt;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SplitState;
import java.util.List;

/**
 * Where an ordered batch stands against its split, read before anything of it is written. Lambda
 * hands a shard's records over in order, one batch at a time (ParallelizationFactor 1): a batch
 * either follows the split's checkpoint, or repeats the batch that wrote it, or repeats the batch
 * attempted since. Two other cases are told apart by the attempts recorded before each batch writes
 * a key:
 *
 * <ul>
 *   <li>the batch starts beyond a batch attempted and never checkpointed: Lambda gave up on that
 *       one (MaximumRetryAttempts) and moved on, and everything between the checkpoint and this
 *       batch is {@linkplain GivenUp given up};
 *   <li>the batch starts inside what another batch covered or attempted: the shard's batches
 *       interleave, as with ParallelizationFactor above 1, which the per-shard checkpoint cannot
 *       fence. Such a batch is refused before anything of it is applied, never skipped.
 * </ul>
 */
final class ShardFence {
  /** Restart points kept for the batch that wrote the checkpoint. */
  static final int MAX_RESTARTS = 8;

  private ShardFence() {}

  /**
   * Checks the batch of {@code state}'s split starting at {@code first}.
   *
   * @return the range given up before it, if this batch is the first to see it, else null
   * @throws PipelineFailedException if the batch interleaves with another of its shard
   */
  static GivenUp check(
      String pipeline, SplitState state, List<Attempt> attempts, String first, long now) {
    String position = state.position();
    if (position != null && SourcePosition.compareOffsets(first, position) <= 0) {
      if (first.equals(state.lastStart()) || state.resumes().contains(first)) {
        return null; // the batch that wrote the checkpoint, or its rest from an answer, again
      }
      throw interleaved(pipeline, state, first, "the split's checkpoint is at " + position);
    }
    String from = noticedThrough(state);
    boolean skipped = false;
    for (Attempt attempt : attempts) {
      if (attempt.first().equals(first) || !beyond(attempt, position)) {
        continue; // this batch's earlier attempts, or one its checkpoint covers
      }
      if (position != null && SourcePosition.compareOffsets(attempt.first(), position) <= 0) {
        // The checkpoint's batch tried again whole, past its checkpoint (the answer that sent
        // Lambda on from a failed record was lost): this batch restarts inside it, or, past it,
        // Lambda gave up on its rest.
        skipped |=
            SourcePosition.compareOffsets(attempt.last(), first) < 0
                && (from == null || SourcePosition.compareOffsets(attempt.last(), from) > 0);
        continue;
      }
      if (SourcePosition.compareOffsets(attempt.last(), first) < 0) {
        // Attempted, never checkpointed, and Lambda is past it: given up, unless a range noticed
        // already holds it.
        skipped |= from == null || SourcePosition.compareOffsets(attempt.first(), from) > 0;
      } else {
        throw interleaved(
            pipeline,
            state,
            first,
            "a batch from " + attempt.first() + " to " + attempt.last() + " was attempted");
      }
    }
    if (!skipped || (from != null && SourcePosition.compareOffsets(first, next(from)) <= 0)) {
      return null;
    }
    return new GivenUp(state.split(), from, first, Progress.lateness(state), now, null);
  }

  /**
   * Whether some of {@code attempt}'s records lie after {@code offset} (null: the split's start).
   * An attempt starting behind it may reach past it: the batch that wrote the checkpoint after
   * answering a failed record, tried again whole when that answer was lost.
   */
  static boolean beyond(Attempt attempt, String offset) {
    return offset == null || SourcePosition.compareOffsets(attempt.last(), offset) > 0;
  }

  /**
   * The last offset the checkpoint or a range noticed as given up accounts for: a new range starts
   * after it (ranges noticed behind a checkpoint that has not moved since lie end to end).
   */
  static String noticedThrough(SplitState state) {
    String through = state.position();
    for (GivenUp known : state.givenUp()) {
      String end = previous(known.before());
      if (through == null || SourcePosition.compareOffsets(end, through) > 0) {
        through = end;
      }
    }
    return through;
  }

  /** Whether an attempt beyond the checkpoint, not recorded as given up, was made lately. */
  static boolean retrying(SplitState state, List<Attempt> attempts, long now, long quiet) {
    String position = state.position();
    for (Attempt attempt : attempts) {
      boolean recorded = state.givenUp().stream().anyMatch(g -> g.covers(attempt.last()));
      if (beyond(attempt, position) && !recorded && attempt.at() + quiet > now) {
        return true;
      }
    }
    return false;
  }

  /**
   * The range given up behind an attempt beyond the checkpoint that no invocation has retried for
   * {@code quiet} ms, noticed by the tick when no later batch comes to notice it (the shard's last
   * batch was given up), or null.
   */
  static GivenUp abandoned(SplitState state, List<Attempt> attempts, long now, long quiet) {
    String from = noticedThrough(state);
    String last = null;
    for (Attempt attempt : attempts) {
      if (!beyond(attempt, from)) {
        continue;
      }
      if (attempt.at() + quiet > now) {
        return null; // still being retried
      }
      if (last == null || SourcePosition.compareOffsets(attempt.last(), last) > 0) {
        last = attempt.last();
      }
    }
    if (last == null) {
      return null;
    }
    return new GivenUp(state.split(), from, next(last), Progress.lateness(state), now, null);
  }

  /**
   * A range noticed as given up, with its earliest recorded attempt, and the event time its
   * attempts' records reach: an attempt may have delivered the windows ending up to it before it
   * died, so what comes after the range is late against it, as after a batch that checkpointed.
   */
  record Noticed(GivenUp gap, long reached) {}

  /**
   * {@code gap} as {@link Noticed}, read from all the attempts in it (a batch reads only the
   * latest, and a run of batches given up in a row may hold more), the batch that wrote {@code
   * state}'s checkpoint included: tried again whole, it may reach into the range. So may any of the
   * {@code recent} attempts that starts before it: a batch of the shard's other lane
   * (ParallelizationFactor above 1) that applied and delivered its records, then was refused at its
   * checkpoint.
   */
  static Noticed withAttempts(
      BatchStore store, String pipeline, SplitState state, GivenUp gap, List<Attempt> recent) {
    String from = gap.after() == null ? "0" : next(gap.after());
    String to = previous(gap.before());
    String start = from;
    if (state.lastStart() != null
        && java.util.Objects.equals(gap.after(), state.position())
        && SourcePosition.compareOffsets(state.lastStart(), from) < 0) {
      start = state.lastStart();
    }
    List<Attempt> in =
        new java.util.ArrayList<>(
            SourcePosition.compareOffsets(start, to) <= 0
                ? store.attempts(pipeline, gap.split(), start, to)
                : List.of());
    for (Attempt attempt : recent) {
      if (SourcePosition.compareOffsets(attempt.first(), start) < 0) {
        in.add(attempt); // starts before the range; counted below if it reaches into it
      }
    }
    String earliest = null;
    long reached = Long.MIN_VALUE;
    for (Attempt attempt : in) {
      if (!beyond(attempt, gap.after())) {
        continue;
      }
      String reaches =
          SourcePosition.compareOffsets(attempt.first(), from) < 0 ? from : attempt.first();
      if (earliest == null || SourcePosition.compareOffsets(reaches, earliest) < 0) {
        earliest = reaches;
      }
      reached = Math.max(reached, attempt.watermark());
    }
    return new Noticed(
        new GivenUp(gap.split(), gap.after(), gap.before(), gap.watermark(), gap.at(), earliest),
        reached);
  }

  /**
   * What of {@code gap}, noticed by a batch that read {@code stored}'s split before another batch
   * noticed a range of its own, no range of {@code stored} holds: the parts outside them, each with
   * its earliest attempt read again (none if they hold all of it). Two batches of one shard running
   * at once (ParallelizationFactor above 1) may notice overlapping ranges; ranges must not overlap,
   * so that a replay never applies a record another replay applied.
   */
  static List<GivenUp> outside(
      BatchStore store, String pipeline, SplitState stored, GivenUp gap, List<Attempt> recent) {
    List<GivenUp> parts = new java.util.ArrayList<>(List.of(gap));
    for (GivenUp known : stored.givenUp()) {
      List<GivenUp> left = new java.util.ArrayList<>();
      for (GivenUp part : parts) {
        if (!part.overlaps(known)) {
          left.add(part);
          continue;
        }
        if (known.after() != null
            && (part.after() == null
                || SourcePosition.compareOffsets(part.after(), known.after()) < 0)) {
          left.add(part(part, part.after(), next(known.after())));
        }
        if (SourcePosition.compareOffsets(part.before(), known.before()) > 0) {
          left.add(part(part, previous(known.before()), part.before()));
        }
      }
      parts = left;
    }
    if (parts.equals(List.of(gap))) {
      return parts;
    }
    return parts.stream().map(p -> withAttempts(store, pipeline, stored, p, recent).gap()).toList();
  }

  /**
   * An open range of {@code state} between its checkpoint and {@code range}, or null. The
   * checkpoint moves past a replayed range only when it reaches the range's start; a range replayed
   * while one before it is still open would be closed with its records still beyond the checkpoint,
   * where their attempts look like a batch given up that nobody noticed, and would be noticed and
   * replayed again.
   */
  static GivenUp openBefore(SplitState state, GivenUp range) {
    String position = state.position();
    boolean ahead =
        range.after() != null
            && (position == null || SourcePosition.compareOffsets(range.after(), position) > 0);
    if (!ahead) {
      return null;
    }
    for (GivenUp open : state.givenUp()) {
      boolean behind =
          position != null && SourcePosition.compareOffsets(previous(open.before()), position) <= 0;
      if (!open.equals(range)
          && !behind
          && SourcePosition.compareOffsets(open.before(), range.before()) < 0) {
        return open;
      }
    }
    return null;
  }

  private static GivenUp part(GivenUp gap, String after, String before) {
    return new GivenUp(gap.split(), after, before, gap.watermark(), gap.at(), null);
  }

  /**
   * The restart points of {@code earlier} answers to a batch and of {@code more}, in order, at most
   * {@link #MAX_RESTARTS}: each copy of a batch that Lambda ran at once may have answered another
   * failed record, and a retry may start at any of them. Past the bound (more copies than Lambda
   * makes) the latest go: a retry from one of those is refused, loudly, not skipped.
   */
  static List<String> restarts(List<String> earlier, List<String> more) {
    java.util.TreeSet<String> all = new java.util.TreeSet<>(SourcePosition::compareOffsets);
    all.addAll(earlier);
    all.addAll(more);
    return all.stream().limit(MAX_RESTARTS).toList();
  }

  private static String next(String offset) {
    return new java.math.BigInteger(offset).add(java.math.BigInteger.ONE).toString();
  }

  private static String previous(String offset) {
    return new java.math.BigInteger(offset).subtract(java.math.BigInteger.ONE).toString();
  }

  private static PipelineFailedException interleaved(
      String pipeline, SplitState state, String first, String why) {
    return new PipelineFailedException(
        "Pipeline "
            + pipeline
            + " refused a batch of "
            + state.split()
            + " starting at "
            + first
            + ": "
            + why
            + ", so the shard's batches interleave, as they do when the event source mapping's"
            + " ParallelizationFactor is above 1. A shard's checkpoint fences one batch at a time:"
            + " set ParallelizationFactor to 1 on the mapping (several shards, not several batches"
            + " of one, give parallelism). Nothing of this batch was applied.",
        null);
  }
}
