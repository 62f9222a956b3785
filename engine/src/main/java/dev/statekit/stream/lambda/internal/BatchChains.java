package dev.statekit.stream.lambda.internal;

import dev.statekit.stream.FailurePolicy;
import dev.statekit.stream.Sink;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.OperatorContext;
import dev.statekit.stream.internal.OperatorSpec;
import dev.statekit.stream.internal.Output;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.internal.Planner;
import dev.statekit.stream.internal.ProcessSpec;
import dev.statekit.stream.internal.SinkSpec;
import dev.statekit.stream.internal.TaskState;
import dev.statekit.stream.internal.WatermarkSpec;
import dev.statekit.stream.internal.WindowSpec;
import dev.statekit.stream.state.CheckpointLineage;
import dev.statekit.stream.state.StateBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Builds the operator chains of a batch run on Lambda from a {@link Plan}: the same operators as an
 * in-process run, except that windows run as {@link BatchWindowOperator}s and every sink is
 * replaced by the batch engine's (which gives each record a deterministic id).
 */
public final class BatchChains {
  private static final CheckpointLineage STORED = new CheckpointLineage(1, List.of());

  private BatchChains() {}

  /** The id under which the operator at {@code position} of stage {@code stage} keeps state. */
  public static String operatorId(Plan plan, int stage, int position) {
    return Planner.operatorId(stage, position, plan.stages().get(stage).operators().get(position));
  }

  /**
   * Creates and opens the chain of stage {@code stage}.
   *
   * @param backend the keyed state of this batch; every key may have stored state
   * @param sinks gives the writer-side replacement of each sink (main, late records, dead letters)
   * @param tail where the chain's last operator sends records, or null if the stage ends in its
   *     sink
   * @return the chain
   */
  public static Chain open(
      Plan plan,
      int stage,
      String pipeline,
      StateBackend backend,
      UnaryOperator<Sink<Object>> sinks,
      Output tail)
      throws Exception {
    List<OperatorSpec> specs = plan.stages().get(stage).operators();
    List<Operator> chain = new ArrayList<>();
    TaskState task = new TaskState();
    for (OperatorSpec spec : specs) {
      Operator operator = create(spec, sinks);
      if (!chain.isEmpty()) {
        chain.get(chain.size() - 1).setNext(operator);
      }
      chain.add(operator);
    }
    if (tail != null) {
      if (chain.isEmpty()) {
        Operator forward =
            new Operator() {
              @Override
              public void emit(dev.statekit.stream.Record<?> record) throws Exception {
                next.emit(record);
              }
            };
        chain.add(forward);
      }
      chain.get(chain.size() - 1).setNext(tail);
    }
    for (int i = 0; i < specs.size(); i++) {
      chain
          .get(i)
          .open(
              new OperatorContext(
                  pipeline,
                  Planner.operatorId(stage, i, specs.get(i)),
                  0,
                  1,
                  null,
                  backend,
                  STORED,
                  Long.MIN_VALUE,
                  task));
    }
    return new Chain(chain, task);
  }

  /** An opened chain: its operators and the state they keep. */
  public static final class Chain {
    private final List<Operator> operators;
    private final TaskState task;

    Chain(List<Operator> operators, TaskState task) {
      this.operators = List.copyOf(operators);
      this.task = task;
    }

    /** The first operator, where records go in. */
    public Operator head() {
      return operators.get(0);
    }

    /**
     * The highest timestamp the chain's watermark generator saw since the last call, or {@link
     * Long#MIN_VALUE}: that of the records one source record made.
     */
    public long takeRecentMaxTimestamp() {
      for (Operator operator : operators) {
        if (operator instanceof WatermarkSpec.Generator generator) {
          return generator.takeRecentMax();
        }
      }
      return Long.MIN_VALUE;
    }

    /** Writes the chain's changed keyed state into its backend's table. */
    public void flushState() {
      task.stores.forEach(store -> store.flush(1));
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Operator create(OperatorSpec spec, UnaryOperator<Sink<Object>> sinks) {
    if (spec instanceof SinkSpec sink) {
      return new SinkSpec(sinks.apply(sink.sink())).create();
    }
    if (spec instanceof ProcessSpec p && p.policy().kind() == FailurePolicy.Kind.DEAD_LETTER) {
      Sink replaced = sinks.apply((Sink) p.policy().deadLetters());
      return new ProcessSpec(p.function(), FailurePolicy.deadLetter(replaced), p.label()).create();
    }
    if (spec instanceof WindowSpec w) {
      return new BatchWindowOperator(
          new WindowSpec(
              w.windows(),
              w.aggregate(),
              w.result(),
              w.process(),
              w.stateSerde(),
              w.lateRecords() == null ? null : sinks.apply(w.lateRecords()),
              w.keySerde(),
              w.label()));
    }
    return spec.create();
  }
}
