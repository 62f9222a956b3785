package dev.statekit.runtime.simulation;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The simulated world: one clock, one source of randomness seeded once, a timeline of events, and
 * the actors in flight. The simulation's thread runs either an event or one actor at a time; an
 * actor runs until its next step, where it waits for the latency of its call while others run. So
 * one seed decides every interleaving, every fault and every clock reading: a run is reproduced
 * from its seed alone.
 */
final class Simulation {
  static final long START = Instant.parse("2030-01-01T00:00:00Z").toEpochMilli();

  /** How much of the trace a failure shows: more when one seed is run on purpose. */
  private static final int TRACE_LINES = Long.getLong("simulation.seed") != null ? 20_000 : 120;

  final long seed;
  private final SplittableRandom random;
  private final PriorityQueue<Timed> timeline = new PriorityQueue<>();
  private final List<Actor> ready = new ArrayList<>();
  private final List<Actor> live = new ArrayList<>();
  private final Deque<Object[]> trace = new ArrayDeque<>();
  // Exactly one actor runs at a time, handed the turn through semaphores: a plain field is enough.
  private Actor running;
  private final java.util.concurrent.Semaphore mainTurn = new java.util.concurrent.Semaphore(0);
  private long until;
  private boolean closing;
  private SimulationDefect defect;
  private long now = START;
  private long sequence;
  private Faults faults = Faults.NONE;

  Simulation(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  void faults(Faults faults) {
    this.faults = faults;
  }

  Faults faults() {
    return faults;
  }

  long now() {
    return now;
  }

  /** Milliseconds since the simulation began. */
  long elapsed() {
    return now - START;
  }

  /** The clock as a process sees it, {@code skewMillis} off the true time. */
  Clock clock(long skewMillis) {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public long millis() {
        return now + skewMillis;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis());
      }
    };
  }

  // Randomness: only ever drawn here, on whichever thread holds the turn.

  int nextInt(int bound) {
    return random.nextInt(bound);
  }

  long nextLong() {
    return random.nextLong();
  }

  long between(long from, long to) {
    return from + (to > from ? random.nextLong(to - from) : 0);
  }

  boolean chance(double probability) {
    return random.nextDouble() < probability;
  }

  /** A source of randomness for the runtime's own draws, from the simulation's. */
  SplittableRandom split() {
    return random.split();
  }

  /** Runs {@code action} on the simulation's thread at {@code time}. */
  void at(long time, Runnable action) {
    timeline.add(new Timed(Math.max(time, now), sequence++, action));
  }

  /**
   * Starts an actor that takes turns from now on, and dies at {@code deadline} (epoch ms; 0 for
   * never) as Lambda ends an invocation at its timeout.
   */
  void spawn(String name, long deadline, Runnable body) {
    SPAWNS.increment();
    Actor actor = new Actor(this, name, deadline, body);
    live.add(actor);
    ready.add(actor);
  }

  /** Steps of every schedule run in this JVM (seeds may run side by side). */
  static final java.util.concurrent.atomic.LongAdder STEPS =
      new java.util.concurrent.atomic.LongAdder();

  /** The longest a process paused mid-call in this schedule, in ms. */
  long longestStall;

  /** Actors started by every schedule run in this JVM. */
  static final java.util.concurrent.atomic.LongAdder SPAWNS =
      new java.util.concurrent.atomic.LongAdder();

  /**
   * A step of the current actor: a call whose request and answer take {@code latency} of simulated
   * time, during which other actors run. Faults decide here whether the process dies.
   */
  void step(Object what) {
    STEPS.increment();
    Actor self = self();
    trace(self.name(), what);
    if (faults.crashAt(this, what)) {
      trace(self.name() + " CRASH at", what);
      throw new Crash(String.valueOf(what));
    }
    long pause = between(1, 20);
    if (faults.stallAt(this, what)) {
      pause = faults.stallMillis(this);
      trace(self.name() + " STALLS " + pause / 1000 + "s at", what);
    }
    if (self.deadline() > 0 && now + pause >= self.deadline()) {
      pauseFor(self, Math.max(0, self.deadline() - now));
      trace(self.name() + " TIMES OUT at", what);
      throw new Crash("the function's timeout");
    }
    longestStall = Math.max(longestStall, pause);
    pauseFor(self, pause);
  }

  /** The current actor waits {@code millis} of simulated time. */
  void sleep(long millis) {
    pauseFor(self(), millis);
  }

  private void pauseFor(Actor self, long millis) {
    if (self.aborted()) {
      throw new Actor.Aborted();
    }
    at(now + millis, () -> ready.add(self));
    Actor next = next();
    if (next == self) {
      // Nothing else is due first: go on without a hand-over.
      return;
    }
    handTo(next);
    self.waitTurn();
  }

  private Actor self() {
    if (running == null) {
      throw new IllegalStateException("A step outside of an actor");
    }
    return running;
  }

  /**
   * Runs events and actors until nothing is left or {@code until} (epoch ms) is reached; actors
   * still in flight then are left waiting (see {@link #close}). Whoever holds the baton, this
   * thread or an actor's, runs the events that are due and picks who goes next.
   */
  void run(long until) {
    this.until = until;
    Actor next = next();
    if (next != null) {
      handTo(next);
      mainTurn.acquireUninterruptibly();
    }
    if (defect != null) {
      SimulationDefect failed = defect;
      defect = null;
      throw failed;
    }
  }

  /** Runs the events due before the next actor's turn; null when the run is over. */
  private Actor next() {
    while (defect == null) {
      if (!ready.isEmpty()) {
        return ready.remove(random.nextInt(ready.size()));
      }
      Timed next = timeline.peek();
      if (next == null || next.time > until) {
        now = Math.max(now, Math.min(until, next == null ? until : next.time));
        return null;
      }
      timeline.poll();
      now = Math.max(now, next.time);
      next.action.run();
    }
    return null;
  }

  /** Passes the baton to {@code next}, or back to the thread that called {@link #run}. */
  private void handTo(Actor next) {
    running = next;
    if (next == null) {
      mainTurn.release();
    } else {
      next.wake();
    }
  }

  /** An actor's body ended (on its thread, which holds the baton). */
  void finished(Actor actor) {
    live.remove(actor);
    if (closing) {
      mainTurn.release();
      return;
    }
    if (actor.failure() != null && defect == null) {
      defect = new SimulationDefect(actor.name() + " failed", actor.failure());
    }
    handTo(next());
  }

  /** Whether any actor is still in flight. */
  boolean busy() {
    return !live.isEmpty();
  }

  /** Ends every actor still in flight. */
  void close() {
    closing = true;
    for (Actor actor : new ArrayList<>(live)) {
      if (actor.started()) {
        actor.abort();
        mainTurn.acquireUninterruptibly();
      }
    }
    closing = false;
    live.clear();
    ready.clear();
    timeline.clear();
  }

  void trace(String line) {
    trace(line, "");
  }

  /**
   * Adds a line to the trace; {@code what} becomes text only if the trace is printed, so describing
   * a step costs nothing in the runs that pass.
   */
  void trace(String who, Object what) {
    if (trace.size() == TRACE_LINES) {
      trace.removeFirst();
    }
    trace.addLast(new Object[] {elapsed(), who, what});
  }

  /** The last lines of the trace. */
  String traceTail() {
    StringBuilder lines = new StringBuilder();
    for (Object[] line : trace) {
      lines.append(String.format("%9.3fs %s %s%n", (Long) line[0] / 1000.0, line[1], line[2]));
    }
    return lines.toString();
  }

  private record Timed(long time, long sequence, Runnable action) implements Comparable<Timed> {
    @Override
    public int compareTo(Timed other) {
      return time != other.time
          ? Long.compare(time, other.time)
          : Long.compare(sequence, other.sequence);
    }
  }

  /** A failure of the simulated code that no fault explains. */
  static final class SimulationDefect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulationDefect(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
