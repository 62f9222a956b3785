package dev.statekit.runtime.internal;

import dev.statekit.runtime.SweepResult;
import dev.statekit.runtime.bus.BusException;
import dev.statekit.runtime.bus.BusMessage;
import dev.statekit.runtime.bus.MessageBus;
import dev.statekit.runtime.store.Timer;
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
 */
public final class TimerSweeper {
  private final RuntimeSettings settings;

  /** A sweeper with these settings. */
  public TimerSweeper(RuntimeSettings settings) {
    this.settings = settings;
  }

  /** One sweep. */
  public SweepResult sweep() {
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
    List<Timer> sent = new ArrayList<>();
    List<Callable<List<Timer>>> sends = new ArrayList<>();
    for (int from = 0; from < due.size(); from += MessageBus.MAX_BATCH) {
      List<Timer> chunk = due.subList(from, Math.min(due.size(), from + MessageBus.MAX_BATCH));
      sends.add(() -> send(chunk, failed));
    }
    settings.parallel.all(sends).forEach(sent::addAll);
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
    return new SweepResult(sent.size(), failed.get(), more);
  }

  private List<Timer> send(List<Timer> chunk, AtomicInteger failed) {
    List<BusMessage> messages = new ArrayList<>();
    for (Timer timer : chunk) {
      messages.add(new BusMessage(timer.groupId(), "t-" + timer.key().id(), timer.body()));
    }
    List<Timer> sent = new ArrayList<>(chunk);
    try {
      settings.queue.send(messages);
    } catch (BusException e) {
      List<Timer> notSent = new ArrayList<>();
      e.failedIndices().forEach(i -> notSent.add(chunk.get(i)));
      sent.removeAll(notSent);
      failed.addAndGet(notSent.size());
    }
    return sent;
  }
}
