package dev.statekit.runtime.simulation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;

/**
 * One simulated activity (a Lambda invocation, a client's call) on a thread that runs only while it
 * holds the {@link Simulation}'s baton, which it passes on at every step: so however many
 * activities are in flight, exactly one runs at a time, in the order the seed decides. Threads are
 * kept and reused by later actors, as starting one costs more than a whole step.
 */
final class Actor {
  private static final Deque<Carrier> IDLE = new ArrayDeque<>();

  private final Simulation sim;
  private final String name;
  private final long deadline;
  private final Runnable body;
  private Carrier carrier;
  private volatile boolean aborted;
  private volatile boolean done;
  private volatile Throwable failure;

  Actor(Simulation sim, String name, long deadline, Runnable body) {
    this.sim = sim;
    this.name = name;
    this.deadline = deadline;
    this.body = body;
  }

  String name() {
    return name;
  }

  /** When the actor dies if it has not ended (epoch ms), 0 for never. */
  long deadline() {
    return deadline;
  }

  /** Hands this actor the baton: it starts, or goes on from where it waits. */
  void wake() {
    if (carrier == null) {
      synchronized (IDLE) {
        carrier = IDLE.isEmpty() ? new Carrier() : IDLE.pop();
      }
      carrier.actor = this;
    }
    carrier.turn.release();
  }

  /** Waits until the baton comes back (on the actor's own thread). */
  void waitTurn() {
    carrier.turn.acquireUninterruptibly();
    if (aborted) {
      throw new Aborted();
    }
  }

  boolean started() {
    return carrier != null;
  }

  boolean done() {
    return done;
  }

  boolean aborted() {
    return aborted;
  }

  /** A failure the body did not handle: a defect of the simulation or the runtime. */
  Throwable failure() {
    return failure;
  }

  /** Makes a waiting actor unwind (from the thread that holds the baton). */
  void abort() {
    aborted = true;
    if (carrier != null && !done) {
      carrier.turn.release();
    }
  }

  private void runBody() {
    try {
      if (!aborted) {
        body.run();
      }
    } catch (Aborted a) {
      // The simulation ended while this activity was in flight.
    } catch (Throwable e) {
      failure = e;
    } finally {
      done = true;
    }
  }

  /** A thread that runs one actor after another. */
  private static final class Carrier {
    final Semaphore turn = new Semaphore(0);
    volatile Actor actor;

    Carrier() {
      Thread thread =
          new Thread(
              () -> {
                while (true) {
                  turn.acquireUninterruptibly();
                  Actor running = actor;
                  running.runBody();
                  actor = null;
                  synchronized (IDLE) {
                    IDLE.push(this);
                  }
                  running.sim.finished(running);
                }
              },
              "sim-actor");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Unwinds an aborted actor. */
  static final class Aborted extends Error {
    private static final long serialVersionUID = 1L;

    Aborted() {
      super("aborted", null, false, false);
    }
  }
}
