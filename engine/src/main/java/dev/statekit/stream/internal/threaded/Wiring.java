package dev.statekit.stream.internal.threaded;

import dev.statekit.stream.Record;
import dev.statekit.stream.RunOptions;
import dev.statekit.stream.internal.KeyBySpec;
import dev.statekit.stream.internal.Operator;
import dev.statekit.stream.internal.OperatorContext;
import dev.statekit.stream.internal.OperatorSpec;
import dev.statekit.stream.internal.Output;
import dev.statekit.stream.internal.Plan;
import dev.statekit.stream.internal.Planner;
import dev.statekit.stream.internal.Routing;
import dev.statekit.stream.internal.TaskState;
import dev.statekit.stream.internal.WatermarkSpec;
import dev.statekit.stream.internal.WindowSpec;
import dev.statekit.stream.state.CheckpointLineage;
import java.util.List;
import java.util.concurrent.BlockingQueue;

/** Builds the chains of operators and the exchanges between stages for a run. */
final class Wiring {
  private final Plan plan;
  private final RunOptions options;
  private final CheckpointLineage lineage;
  private final long watermark;

  Wiring(Plan plan, RunOptions options, CheckpointLineage lineage, long watermark) {
    this.plan = plan;
    this.options = options;
    this.lineage = lineage;
    this.watermark = watermark;
  }

  /** The exchange into stage {@code stage} from worker {@code channel}, or null after the last. */
  KeyedExchange exchange(int stage, int channel, List<BlockingQueue<Chunk>[]> queues) {
    if (stage >= plan.stages().size()) {
      return null;
    }
    Plan.Stage target = plan.stages().get(stage);
    KeyBySpec keyBy = target.keyBy();
    // Windows keep their keys serialized in their timers, and a restore reads them back.
    boolean readsKeysBack = target.operators().stream().anyMatch(o -> o instanceof WindowSpec);
    return new KeyedExchange(
        keyBy, readsKeysBack, routing(target), queues.get(stage), channel, options.chunkSize());
  }

  private static Routing routing(Plan.Stage stage) {
    return stage.keyBy() == null
        ? null
        : new Routing(stage.parallelism(), stage.keyBy().keySerde());
  }

  /** Creates and opens the chain of one worker of stage {@code s}, ending in {@code tail}. */
  Operator chain(int s, int worker, TaskState state, Output tail) throws Exception {
    Plan.Stage stage = plan.stages().get(s);
    List<OperatorSpec> specs = stage.operators();
    Operator head = null;
    Operator previous = null;
    for (int i = 0; i < specs.size(); i++) {
      Operator operator = specs.get(i).create();
      if (previous == null) {
        head = operator;
      } else {
        previous.setNext(operator);
      }
      previous = operator;
      state.operators.add(operator);
    }
    if (head == null) {
      head = new Forward();
      previous = head;
    }
    previous.setNext(tail);
    Routing routing = routing(stage);
    for (int i = 0; i < specs.size(); i++) {
      String id = Planner.operatorId(s, i, specs.get(i));
      state
          .operators
          .get(i)
          .open(
              new OperatorContext(
                  options.name(),
                  id,
                  worker,
                  stage.parallelism(),
                  routing,
                  options.stateBackend(),
                  lineage,
                  watermark,
                  state));
    }
    return head;
  }

  /** The watermark generator of the source stage's chain, or null. */
  static WatermarkSpec.Generator generator(TaskState state) {
    for (Operator operator : state.operators) {
      if (operator instanceof WatermarkSpec.Generator generator) {
        return generator;
      }
    }
    return null;
  }

  /** True if {@code head} is the chain of a stage without operators: it passes everything on. */
  static boolean passesOn(Operator head) {
    return head instanceof Forward;
  }

  /** Passes everything on: the chain of a stage without operators of its own. */
  private static final class Forward extends Operator {
    @Override
    public void emit(Record<?> record) throws Exception {
      next.emit(record);
    }
  }
}
