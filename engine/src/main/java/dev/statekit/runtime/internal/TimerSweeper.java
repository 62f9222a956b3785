package dev.statekit.runtime.internal;

import dev.statekit.Deadline;
import dev.statekit.bus.BusException;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.MessageBus;
import dev.statekit.bus.SqsText;
import dev.statekit.runtime.SweepResult;
import dev.statekit.runtime.store.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends due delayed messages: reads each timer shard's due timers, sends each to its target's queue
 * group (deduplication id = timer id), and marks it sent. The timer itself stays until its target
 * applies the message, which removes it in the same commit; so a sweep that dies after sending, or
 * a message sent twice, is still applied once, and a cancellation that comes before the message is
 * applied still wins. A timer sent but not applied is sent again after {@code timerResendAfter}.
 * With a wake-up queue, each call also puts wake-ups ({@link WakeUps}) for the timers due before
 * the next sweep that have none, so that they go out on time too; a wake-up lost (or never put, its
 * process having died after the commit) leaves its timer to the next sweep once due. Each call also
 * delivers the outboxes whose batch did not finish ({@link OutboxSweeper}).
 */
public final class TimerSweeper {
  /**
   * The least time left for another sweep: a sweep's reads, sends and marks each retry with
   * backoff, so one can take seconds when DynamoDB or SQS throttles.
   */
  public static final Duration SWEEP_MARGIN = Duration.ofSeconds(10);

  /** Sweeps at most this many times per call, so a call without a deadline still ends. */
  public static final int MAX_SWEEPS = 20;

  private final RuntimeSettings settings;
  private final OutboxSweeper outboxes;

  /** A sweeper with these settings. */
  public TimerSweeper(RuntimeSettings settings) {
    this.settings = settings;
    this.outboxes = new OutboxSweeper(settings);
  }

  /**
   * Sweeps while more timers are due, the last sweep sent something and time allows: another sweep
   * starts only if more than {@link #SWEEP_MARGIN} (or twice the longest sweep so far) is left
   * before {@code deadline}, and never more than {@link #MAX_SWEEPS} in one call. The result's
   * {@code more} says whether due timers were left for the next call. Outboxes left behind go last,
   * and whatever the timers' reads and writes threw: one whose sink stalls holds the sweep to the
   * deadline, and due delayed messages went out before it (they never did while it came first).
   */
  public SweepResult sweepUntil(Deadline deadline) {
    int sent = 0;
    int failed = 0;
    Duration longest = Duration.ZERO;
    SweepResult last;
    int sweeps = 0;
    int[] swept;
    try {
      do {
        long start = System.nanoTime();
        last = sweepTimers();
        longest = max(longest, Duration.ofNanos(System.nanoTime() - start));
        sent += last.sent();
        failed += last.failed();
      } while (last.more()
          && last.sent() > 0
          && ++sweeps < MAX_SWEEPS
          && deadline.hasMoreThan(max(SWEEP_MARGIN, longest.multipliedBy(2))));
      wakeSoonDue(settings.clock.millis());
    } finally {
      swept = outboxes.sweep();
    }
    return new SweepResult(sent, failed, last.more(), swept[0], swept[1]);
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** One sweep of delayed messages and outboxes. */
  public SweepResult sweep() {
    SweepResult timers;
    int[] swept;
    try {
      timers = sweepTimers();
      wakeSoonDue(settings.clock.millis());
    } finally {
      swept = outboxes.sweep();
    }
    return new SweepResult(timers.sent(), timers.failed(), timers.more(), swept[0], swept[1]);
  }

  private SweepResult sweepTimers() {
    long now = settings.clock.millis();
    long sentBefore = now - settings.timerResendAfter.toMillis();
    List<Callable<List<Timer>>> reads = new ArrayList<>();
    for (int shard = 0; shard < RuntimeSettings.TIMER_SHARDS; shard++) {
      int s = shard;
      reads.add(() -> settings.store.dueTimers(s, now, sentBefore, settings.sweepLimit));
    }
    List<Timer> due = new ArrayList<>();
    boolean more = false;
    for (List<Timer> shardDue : settings.parallel.all(reads)) {
      due.addAll(shardDue);
      more |= shardDue.size() >= settings.sweepLimit;
    }
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger sent = new AtomicInteger();
    List<Callable<Void>> sends = new ArrayList<>();
    for (int from = 0; from < due.size(); from += MessageBus.MAX_BATCH) {
      List<Timer> chunk = due.subList(from, Math.min(due.size(), from + MessageBus.MAX_BATCH));
      sends.add(
          () -> {
            int notSent = sendDue(settings, chunk, now).size();
            failed.addAndGet(notSent);
            sent.addAndGet(chunk.size() - notSent);
            return null;
          });
    }
    if (!sends.isEmpty()) {
      settings.parallel.all(sends);
    }
    return new SweepResult(sent.get(), failed.get(), more);
  }

  /**
   * Puts wake-ups for the timers due before the next sweep that have none (those written more than
   * 15 minutes ahead), so they too are sent on time rather than by the next sweep.
   */
  private void wakeSoonDue(long now) {
    if (settings.wakeUps == null) {
      return;
    }
    long until = now + settings.wakeUpHorizon.toMillis();
    List<Callable<List<Timer>>> reads = new ArrayList<>();
    for (int shard = 0; shard < RuntimeSettings.TIMER_SHARDS; shard++) {
      int s = shard;
      reads.add(() -> settings.store.timersToWake(s, now, until, settings.sweepLimit));
    }
    List<Timer> soon = new ArrayList<>();
    settings.parallel.all(reads).forEach(soon::addAll);
    List<Callable<Void>> marks = new ArrayList<>();
    for (Timer timer : new WakeUps(settings).put(soon)) {
      marks.add(
          () -> {
            settings.store.markWokenUp(timer.key(), now);
            return null;
          });
    }
    if (!marks.isEmpty()) {
      settings.parallel.all(marks);
    }
  }

  /**
   * Sends due timers (at most {@link MessageBus#MAX_BATCH}) to their targets' queue groups, each
   * with its timer's id as deduplication id, and marks the sent ones sent at {@code now}.
   *
   * @return the timers the queue did not take
   */
  static List<Timer> sendDue(RuntimeSettings settings, List<Timer> chunk, long now) {
    List<BusMessage> messages = new ArrayList<>();
    for (Timer timer : chunk) {
      // Bodies are written escaped (QueueBodyCodec); one stored by an earlier version may hold a
      // character SQS refuses, and would be refused on every sweep.
      messages.add(
          new BusMessage(timer.groupId(), "t-" + timer.key().id(), SqsText.escape(timer.body())));
    }
    List<Timer> sent = new ArrayList<>(chunk);
    List<Timer> notSent = new ArrayList<>();
    try {
      settings.queue.send(messages);
    } catch (BusException e) {
      e.failedIndices().forEach(i -> notSent.add(chunk.get(i)));
      sent.removeAll(notSent);
    }
    List<Callable<Void>> marks = new ArrayList<>();
    for (Timer timer : sent) {
      marks.add(
          () -> {
            settings.store.markSent(timer.key(), now);
            return null;
          });
    }
    if (!marks.isEmpty()) {
      settings.parallel.all(marks);
    }
    return notSent;
  }
}
