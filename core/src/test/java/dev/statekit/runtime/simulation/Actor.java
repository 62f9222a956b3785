package dev.statekit.runtime.simulation;

import java.util.concurrent.Semaphore;

/**
 * One simulated activity (a Lambda invocation, a client's call) on a thread of its own that runs
 * only when the {@link Simulation} hands it the turn, and hands it back at every step: so however
 * many activities are in flight, exactly one runs at a time, in the order the seed decides.
 */
final class Actor {
  private final Semaphore turn = new Semaphore(0);
  private final Semaphore back = new Semaphore(0);
  private final Thread thread;
  private final String name;
  private volatile boolean aborted;
  private volatile boolean done;
  private volatile Throwable failure;

  Actor(String name, Runnable body) {
    this.name = name;
    this.thread =
        new Thread(
            () -> {
              try {
                turn.acquireUninterruptibly();
                if (!aborted) {
                  body.run();
                }
              } catch (Aborted a) {
                // The simulation ended while this activity was in flight.
              } catch (Throwable e) {
                failure = e;
              } finally {
                done = true;
                back.release();
              }
            },
            "sim-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  String name() {
    return name;
  }

  /** Runs the actor until it yields or ends (from the simulation's thread). */
  void resume() {
    turn.release();
    back.acquireUninterruptibly();
  }

  /** Gives the turn back and waits for the next (from the actor's own thread). */
  void yieldTurn() {
    if (aborted) {
      throw new Aborted();
    }
    back.release();
    turn.acquireUninterruptibly();
    if (aborted) {
      throw new Aborted();
    }
  }

  boolean done() {
    return done;
  }

  /** A failure the body did not handle: a defect of the simulation or the runtime. */
  Throwable failure() {
    return failure;
  }

  /** Ends an actor that is waiting for its turn. */
  void abort() {
    aborted = true;
    turn.release();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
