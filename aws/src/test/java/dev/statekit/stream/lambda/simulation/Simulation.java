package dev.statekit.stream.lambda.simulation;

import dev.statekit.StateKitException.Reason;
import dev.statekit.egress.EgressException;
import dev.statekit.event.BatchConsumer;
import dev.statekit.event.QueueRecord;
import dev.statekit.stream.Pipeline;
import dev.statekit.stream.PipelineFailedException;
import dev.statekit.stream.lambda.BatchFaultHook;
import dev.statekit.stream.lambda.BatchPipeline;
import dev.statekit.stream.lambda.BatchResult;
import dev.statekit.stream.lambda.GivenUp;
import dev.statekit.stream.lambda.SourceBatch;
import dev.statekit.stream.state.StateStoreException;
import dev.statekit.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * One schedule of a batch pipeline on simulated Lambda, decided entirely by its seed: the workload,
 * the input, the event source mapping's settings, the order of every step and every fault. Time is
 * a manual clock; invocations that run at the same time take turns the seed picks ({@link Turns}).
 * Faults last a while ({@link Faults}); then the run goes on without them, the given-up records are
 * replayed and the dead letters handed to the pipeline as the README says to, until the results are
 * complete or a bound on simulated time passes. The invariants are checked at the end ({@link
 * #check}).
 */
public final class Simulation {
  static final long START = 1_767_225_600_000L;
  static final String NAME = "sim";
  static final Duration IDLE = Duration.ofHours(2);
  static final Duration BATCH_TIMEOUT = Duration.ofMinutes(1);
  static final int KEY_ITEM_BOUND = 100 * 1024;

  /**
   * What one schedule found.
   *
   * @param seed the seed
   * @param violations the invariants broken, empty if none
   * @param report the schedule and the last steps of its trace
   */
  public record Outcome(long seed, List<String> violations, String report) {
    public boolean ok() {
      return violations.isEmpty();
    }
  }

  private final long seed;
  private final Workload workload;
  private final ManualClock clock = new ManualClock(START);
  private final Random random;
  private final Turns turns;
  private final Trace trace = new Trace(clock::millis);
  private final Faults faults;
  private final SimulatedDynamoDb store;

  /** Writes in flight when their invocation died, landing late, if that fault is on. */
  private final LateWrites lateWrites;

  private final SimulatedSink sink;
  private final Pipeline pipeline;
  private final List<BatchPipeline> warm = new ArrayList<>();

  /**
   * Whether invocations that run at the same time may share one instance (one {@code
   * BatchPipeline}, as the local runner's threads do, its caches and decoded states included),
   * rather than each having an execution environment of its own as on Lambda.
   */
  private final boolean shared;

  /** The instances invocations are running on now, one entry per invocation. */
  private final List<BatchPipeline> busy = new ArrayList<>();

  /**
   * Timer items per query of the index: the default, or a few, so that firings read full pages and
   * stop short of the watermark (at 100 the schedules' few hundred records rarely fill one). Drawn
   * apart from {@link #random}, so that each seed's schedule stays what it was.
   */
  private final int timerPage;

  private final List<String> violations = new ArrayList<>();
  private final Sources sources;
  private int refusals;

  /** Messages whose outputs the tick delivered, where a batch had deferred them. */
  private int deferredDelivered;

  /** Batches refused because a dead invocation's checkpoint landed while they ran. */
  private int lateRefusals;

  private final List<byte[]> late = new ArrayList<>();
  private final java.util.Set<String> refusedRecords = new java.util.HashSet<>();
  private final java.util.Set<String> handedOver = new java.util.HashSet<>();
  private int invocations;

  private Simulation(long seed, List<Workload> workloads, boolean shared, double lateChance) {
    this.seed = seed;
    this.shared = shared;
    this.random = new Random(seed);
    this.timerPage = new int[] {100, 100, 1, 2, 5}[new Random(seed ^ 0x5EED_9A6EL).nextInt(5)];
    this.workload = workloads.get(random.nextInt(workloads.size()));
    this.turns = new Turns(random);
    this.faults = new Faults(random, START, clock::millis);
    this.lateWrites =
        lateChance > 0
            ? new LateWrites(seed, lateChance, clock::millis, faults::active, trace)
            : null;
    this.store = new SimulatedDynamoDb(clock, faults, turns, trace, lateWrites);
    this.sink = new SimulatedSink(faults, turns, trace);
    this.pipeline = workload.pipeline(sink, IDLE);
    // Mixed: a Random's first draws follow consecutive seeds closely, and with the queue's kind
    // (drawn from the seed too) they would pick one consumer for most FIFO schedules.
    Random routing = new Random(new java.util.SplittableRandom(seed ^ 0xD1E7_7E77L).nextLong());
    this.sources = new Sources(workload.source(), random, routing, trace);
  }

  /** Runs the schedule of {@code seed} over one of {@code workloads} (the seed picks). */
  public static Outcome run(long seed, List<Workload> workloads) {
    return run(seed, workloads, false);
  }

  /**
   * Runs the schedule of {@code seed}; {@code shared}: invocations at the same time may share an
   * instance, as the local runner's threads share one pipeline.
   */
  public static Outcome run(long seed, List<Workload> workloads, boolean shared) {
    return run(seed, workloads, shared, LateWrites.ON ? LateWrites.MAX_CHANCE : 0);
  }

  /**
   * As {@link #run(long, List, boolean)}, with writes in flight when their invocation died landing
   * late ({@link LateWrites}) if {@code lateChance} is above 0: the highest chance the schedule
   * draws that a write request is held (0 for none, the default unless {@code
   * -Dsimulation.lateWrites=true}).
   */
  public static Outcome run(
      long seed, List<Workload> workloads, boolean shared, double lateChance) {
    return new Simulation(seed, workloads, shared, lateChance).run();
  }

  /** The workloads of the kit itself. */
  public static List<Workload> workloads() {
    return List.of(
        new WindowedCounts(false),
        new WindowedCounts(true),
        new RunningCounts(),
        new KeySums(Workload.Source.QUEUE),
        new KeySums(Workload.Source.FIFO_QUEUE),
        new KeySums(Workload.Source.CHANGES));
  }

  private BatchPipeline fresh() {
    return BatchPipeline.builder(NAME, pipeline)
        .store(store)
        .clock(clock)
        .batchTimeout(BATCH_TIMEOUT)
        .concurrency(new SimulatedConcurrency(faults, trace))
        .timerPage(timerPage)
        .faultHook(this::hook)
        .build();
  }

  private void hook(BatchFaultHook.Step step, String detail) {
    if (faults.chance(faults.crashAtStep)) {
      trace.add("crash at " + step + " " + detail);
      throw new Crash("at " + step);
    }
  }

  /** A warm instance, or a cold start. */
  private BatchPipeline take() {
    BatchPipeline instance;
    if (shared && !busy.isEmpty() && random.nextBoolean()) {
      instance = busy.get(random.nextInt(busy.size())); // one another invocation is running on
    } else if (warm.isEmpty() || random.nextDouble() < faults.coldStart) {
      instance = fresh();
    } else {
      instance = warm.remove(random.nextInt(warm.size()));
    }
    busy.add(instance);
    return instance;
  }

  /**
   * The invocation on {@code instance} ended: the instance is warm for the next unless it crashed
   * (on Lambda the environment is gone; a shared one lives on, as a thread's failure leaves the
   * process running) or another invocation still runs on it.
   */
  private void giveBack(BatchPipeline instance, boolean crashed) {
    busy.remove(instance);
    if (shared ? busy.contains(instance) || warm.contains(instance) : crashed) {
      return;
    }
    warm.add(instance);
  }

  private final Invoker invoker =
      new Invoker() {
        @Override
        public Outcome invoke(SourceBatch batch) {
          return Simulation.this.invoke(take(), batch);
        }

        @Override
        public List<Outcome> together(List<SourceBatch> batches) {
          List<BatchPipeline> instances = new ArrayList<>();
          batches.forEach(b -> instances.add(take()));
          Outcome[] outcomes = new Outcome[batches.size()];
          List<Runnable> bodies = new ArrayList<>();
          for (int i = 0; i < batches.size(); i++) {
            int at = i;
            bodies.add(
                () -> outcomes[at] = Simulation.this.invoke(instances.get(at), batches.get(at)));
          }
          trace.add(batches.size() + " invocations at the same time");
          turns.together(bodies);
          return List.of(outcomes);
        }
      };

  private final QueueInvoker queueInvoker =
      new QueueInvoker() {
        @Override
        public Invoker.Outcome invoke(Handler handler, List<QueueRecord> event) {
          return Simulation.this.invoke(take(), handler, event);
        }

        @Override
        public List<Invoker.Outcome> together(Handler handler, List<List<QueueRecord>> events) {
          List<BatchPipeline> instances = new ArrayList<>();
          events.forEach(e -> instances.add(take()));
          Invoker.Outcome[] outcomes = new Invoker.Outcome[events.size()];
          List<Runnable> bodies = new ArrayList<>();
          for (int i = 0; i < events.size(); i++) {
            int at = i;
            bodies.add(
                () ->
                    outcomes[at] =
                        Simulation.this.invoke(instances.get(at), handler, events.get(at)));
          }
          trace.add(events.size() + " invocations at the same time");
          turns.together(bodies);
          return List.of(outcomes);
        }
      };

  private Invoker.Outcome invoke(BatchPipeline instance, SourceBatch batch) {
    List<String> records = new ArrayList<>();
    batch.records().forEach(r -> records.add(batch.split() + "/" + r.position().offset()));
    return invoke(
        instance,
        "a batch of " + batch.split(),
        records,
        () -> instance.process(batch).failedOffsets());
  }

  /**
   * An invocation with an SQS event's records, which the consumer the function registered for the
   * queue takes as Lambda hands them over: it routes them to their splits itself.
   */
  private Invoker.Outcome invoke(
      BatchPipeline instance, QueueInvoker.Handler handler, List<QueueRecord> event) {
    List<String> records = new ArrayList<>();
    // The split the records are meant for: a dead letter's source queue's, else the queue's.
    event.forEach(
        r -> records.add(r.deadLetterSource().orElse(r.queueName()) + "/" + r.messageId()));
    BatchConsumer<QueueRecord> consumer = handler.of().apply(instance);
    return invoke(
        instance,
        "an event of " + event.get(0).queueName() + " to " + handler,
        records,
        () -> {
          try {
            return consumer.accept(event).failedItemIds();
          } catch (RuntimeException e) {
            throw e;
          } catch (Exception e) {
            throw new IllegalStateException("the consumer threw a checked exception: " + e, e);
          }
        });
  }

  private Invoker.Outcome invoke(
      BatchPipeline instance,
      String during,
      List<String> records,
      java.util.function.Supplier<List<String>> body) {
    invocations++;
    int lateCheckpoints = lateWrites == null ? 0 : lateWrites.checkpointsLanded;
    handedOver.addAll(records);
    try {
      List<String> failed = body.get();
      giveBack(instance, false);
      return new Invoker.Outcome(failed, null);
    } catch (RuntimeException e) {
      if (lateWrites != null
          && lateWrites.checkpointsLanded > lateCheckpoints
          && e instanceof PipelineFailedException
          && String.valueOf(e.getMessage()).contains("checkpointed while the batch")) {
        // A dead invocation's checkpoint landed while this batch ran: the refusal is expected
        // (Lambda retries the batch from that checkpoint); what was lost or applied twice, if
        // anything, the results say.
        lateRefusals++;
        trace.add("refused after a late checkpoint landed");
      } else {
        expectedFailure(e, during);
      }
      if (e instanceof PipelineFailedException) {
        refusedRecords.addAll(records);
      }
      giveBack(instance, e instanceof Crash);
      return new Invoker.Outcome(List.of(), e);
    }
  }

  /** Faults explain a failure; anything else is a defect. */
  private void expectedFailure(RuntimeException e, String during) {
    if (e instanceof Crash || e instanceof EgressException) {
      return;
    }
    if (e instanceof StateStoreException s && s.reason() != Reason.INVALID_REQUEST) {
      return;
    }
    if (e instanceof PipelineFailedException
        && String.valueOf(e.getMessage()).contains("ParallelizationFactor")) {
      refusals++;
      if (sources.parallelization() == 1) {
        violations.add("refused " + during + " with ParallelizationFactor 1: " + e.getMessage());
      }
      return;
    }
    StringBuilder where = new StringBuilder(e.toString());
    for (StackTraceElement frame : e.getStackTrace()) {
      if (frame.getClassName().startsWith("dev.statekit")) {
        where.append("\n      at ").append(frame);
      }
      if (where.length() > 1200) {
        break;
      }
    }
    violations.add("unexpected failure of " + during + ": " + where);
  }

  private void tick() {
    BatchPipeline instance = take();
    try {
      instance.registerSplits(sources.openSplits()); // as KinesisShards lists them on each tick
      var result = instance.tick();
      if (result.windowsFired() > 0
          || !result.idleSplits().isEmpty()
          || result.deferredDelivered() > 0) {
        trace.add(
            "tick: idle "
                + result.idleSplits()
                + ", fired "
                + result.windowsFired()
                + ", deferred messages delivered "
                + result.deferredDelivered());
      }
      deferredDelivered += result.deferredDelivered();
      giveBack(instance, false);
    } catch (RuntimeException e) {
      trace.add("tick failed: " + e.getMessage());
      expectedFailure(e, "a tick");
      busy.remove(instance); // as before: a failed tick's instance is not used again
    }
  }

  private Outcome run() {
    trace.add("timer items per query: " + timerPage);
    List<Workload.Input> inputs = workload.input(random, START);
    List<String> expected = new ArrayList<>(workload.expected(inputs));
    Collections.sort(expected);
    sources.setUp(inputs.get(inputs.size() - 1).at() - START, START);
    while (true) {
      try {
        fresh().registerSplits(sources.openSplits());
        break;
      } catch (RuntimeException e) {
        expectedFailure(e, "registering the shards");
        clock.advance(Duration.ofSeconds(1));
      }
    }
    long inputEnd = inputs.get(inputs.size() - 1).at();
    long limit = Math.max(faults.end, inputEnd) + IDLE.toMillis() + 3 * 3600_000L;
    int next = 0;
    long nextTick = START + 60_000;
    boolean quiet = false;
    boolean done = false;
    while (clock.millis() < limit && !done) {
      if (lateWrites != null) {
        lateWrites.land(false);
      }
      long now = clock.millis();
      while (next < inputs.size() && inputs.get(next).at() <= now) {
        sources.put(inputs.get(next++), now, this::registerNew);
      }
      List<Runnable> ready = sources.ready(now, invoker, queueInvoker, faults);
      boolean tickDue = now >= nextTick;
      if (ready.isEmpty() && !tickDue) {
        long wake = Math.min(nextTick, sources.nextWake(now));
        if (next < inputs.size()) {
          wake = Math.min(wake, inputs.get(next).at());
        }
        clock.advance(Duration.ofMillis(Math.max(1, wake - now)));
        continue;
      }
      if (tickDue && (ready.isEmpty() || random.nextInt(3) == 0)) {
        tick();
        nextTick += 60_000;
        if (quiet) {
          sources.recoverDeadLetters();
          replayGivenUp();
          done = finished(expected);
        }
      } else {
        ready.get(random.nextInt(ready.size())).run();
      }
      clock.advance(Duration.ofMillis(50 + random.nextInt(3000)));
      if (!quiet && !faults.active() && next == inputs.size() && sources.settled()) {
        quiet = true;
        trace.add("faults over, input drained: replays and dead letters from here");
        sources.recoverDeadLetters();
      }
    }
    check(expected, done);
    if (Boolean.getBoolean("simulation.debug")) {
      sink.records().forEach((id, v) -> System.out.println("SINK " + id + " " + v));
      sources.dump();
    }
    String report =
        "seed "
            + seed
            + ": "
            + workload.name()
            + ", "
            + inputs.size()
            + " records, "
            + expected.size()
            + " results expected, "
            + sources
            + ", "
            + invocations
            + " invocations, "
            + refusals
            + " refusals, "
            + (lateRefusals == 0 ? "" : lateRefusals + " after late checkpoints, ")
            + store.requests
            + " store requests, "
            + deferredDelivered
            + " deferred messages delivered by the tick; "
            + faults
            + (lateWrites == null ? "" : "; " + lateWrites)
            + "\n"
            + trace;
    if (Boolean.getBoolean("simulation.debug")) {
      System.out.println("REPORT " + report.lines().findFirst().orElse(""));
    }
    return new Outcome(seed, List.copyOf(violations), report);
  }

  private void registerNew(List<String> splits) {
    try {
      fresh().registerSplits(splits); // the tick's listing, right after a reshard
    } catch (RuntimeException e) {
      expectedFailure(e, "registering new shards");
    }
  }

  /** What the operator does with the records Lambda gave up on: replays them. */
  private void replayGivenUp() {
    BatchPipeline instance = fresh();
    for (GivenUp range : instance.givenUp()) {
      SourceBatch batch = sources.range(range);
      trace.add("replay of " + range + ": " + batch.records().size() + " records");
      try {
        BatchResult replayed = instance.replay(range, batch);
        trace.add(
            "replayed: applied "
                + replayed.applied()
                + ", repeats "
                + replayed.repeats()
                + ", late "
                + replayed.late()
                + ", failed "
                + replayed.failedOffsets());
        if (replayed.succeeded()) {
          sources.replayed(range); // else the range stays open, replayed again with the next tick
        }
      } catch (IllegalArgumentException refused) {
        if (!refused.getMessage().startsWith("Replay GivenUp[")) {
          expectedFailure(refused, "a replay");
        }
        // One before it failed and stays open: the checkpoint passes ranges in order.
        trace.add("replay refused: " + refused.getMessage());
      } catch (RuntimeException e) {
        expectedFailure(e, "a replay");
      }
    }
    for (SourceBatch batch : sources.unorderedGivenUp()) {
      // A queue's or a stream's: handed over again, applied once; the operator hands it over
      // again while it answers failures (a record failing once in the keyed stage). A stream's
      // try stops at its first failed change, so a batch whose records never reached the keyed
      // stage before Lambda gave it up may take a try per record.
      int bound = batch.records().size() + 5;
      for (int tries = 0; tries < bound && !invoke(instance, batch).ok(); tries++) {
        trace.add(
            "given-up batch "
                + batch.records().get(0).position().offset()
                + " answered failures: again");
      }
    }
    // What only the on-failure destination names: no attempt of it reached the table.
    for (ShardMapping.Skipped skipped : sources.skippedNotReplayed()) {
      GivenUp range = GivenUp.onFailure(skipped.split(), skipped.first(), skipped.last());
      SourceBatch batch = sources.range(range);
      try {
        BatchResult replayed = instance.replay(range, batch);
        trace.add("replay of the on-failure record " + skipped + ": " + replayed.failedOffsets());
        batch.records().forEach(r -> late.add(r.value()));
        if (replayed.succeeded()) {
          sources.replayed(range);
        }
      } catch (IllegalArgumentException refused) {
        trace.add("replay of " + skipped + " refused: " + refused.getMessage());
        if (refused.getMessage().contains("Nothing to replay")) {
          sources.replayed(range); // its records were applied: the pipeline says so
        }
      } catch (RuntimeException e) {
        expectedFailure(e, "a replay of an on-failure record");
      }
    }
  }

  private boolean finished(List<String> expected) {
    List<String> actual = actual();
    List<String> missing = new ArrayList<>(expected);
    actual.forEach(missing::remove);
    List<String> extra = new ArrayList<>(actual);
    expected.forEach(extra::remove);
    boolean complete =
        (missing.isEmpty() && extra.isEmpty()) || workload.explains(missing, extra, late);
    return sources.drained()
        && fresh().givenUp().isEmpty()
        && sources.skippedNotReplayed().isEmpty()
        && complete
        && store.quiet().timersDueBy(NAME, Long.MAX_VALUE, 1).isEmpty();
  }

  private List<String> actual() {
    List<String> actual = new ArrayList<>(sink.records().values());
    Collections.sort(actual);
    return actual;
  }

  /** The invariants, after the schedule. */
  private void check(List<String> expected, boolean done) {
    sink.conflicts.forEach(c -> violations.add("one output id with two values: " + c));
    List<String> actual = actual();
    boolean refused = sources.parallelization() > 1 && refusals > 0;
    if (!refused) {
      List<String> missing = new ArrayList<>(expected);
      actual.forEach(missing::remove);
      List<String> extra = new ArrayList<>(actual);
      expected.forEach(extra::remove);
      boolean explained =
          (!missing.isEmpty() || !extra.isEmpty()) && workload.explains(missing, extra, late);
      if (!missing.isEmpty() && !explained) {
        violations.add("results missing (" + missing.size() + "): " + first(missing));
        // What Lambda gave up on and the pipeline did not record, if that is where they went.
        violations.addAll(sources.unnoticed());
      }
      if (!extra.isEmpty() && !explained) {
        violations.add("results not in the reference (" + extra.size() + "): " + first(extra));
      }
      if (!done && ((missing.isEmpty() && extra.isEmpty()) || explained)) {
        violations.add(
            "not quiet by the bound on simulated time: drained "
                + sources.drained()
                + ", given up and not replayed "
                + fresh().givenUp()
                + ", timer items left "
                + store.quiet().timersDueBy(NAME, Long.MAX_VALUE, 3).size());
      }
    } else {
      if (actual.size() > new java.util.HashSet<>(actual).size()) {
        violations.add("a refused shard still applied a record twice");
      }
      if (workload.perRecord()) {
        // Every record handed over has its output, or was in a batch the pipeline refused (a
        // refused lane's later records wait on the stream), or in one Lambda gave up on, which the
        // on-failure destination names: none was skipped unseen.
        java.util.Set<String> produced = new java.util.HashSet<>();
        sink.records()
            .keySet()
            .forEach(
                id ->
                    produced.add(
                        id.substring(
                            id.indexOf('/') + 1, id.lastIndexOf('/', id.lastIndexOf('/') - 1))));
        for (String record : sources.recordIds()) {
          if (handedOver.contains(record)
              && !produced.contains(record)
              && !refusedRecords.contains(record)
              && !sources.givenUpByLambda(record)) {
            violations.add("record " + record + " was neither applied nor refused");
          }
        }
      }
    }
    store
        .largestKeyItems()
        .forEach(
            (key, bytes) -> {
              if (bytes > KEY_ITEM_BOUND) {
                violations.add("key " + key + "'s item grew to " + bytes + " bytes");
              }
            });
    violations.addAll(sources.expired());
  }

  private static String first(List<String> values) {
    return values.size() <= 8 ? values.toString() : values.subList(0, 8) + "...";
  }
}
