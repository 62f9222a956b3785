package dev.statekit.application;

import dev.statekit.entry.EntryPoint;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.InvocationObserver;
import dev.statekit.types.TypeName;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a StateKit application is, declared once: its stateful functions, its batch pipelines and
 * the streams they read, where its egresses go, what the local runner sets instead of the template,
 * and optionally a scenario the local runner's {@code demo} plays. The Lambda handlers ({@link
 * dev.statekit.handlers.ApplicationHandler}, {@link
 * dev.statekit.handlers.ApplicationIngressHandler}) wire it on AWS from their environment; the
 * local runner wires the same declaration on its servers or in memory ({@link #inMemory}).
 *
 * <p>An application names its declaration in {@code template.yaml} with the variable {@value
 * #VARIABLE}: the class of a {@link StateKitApplication}.
 *
 * <pre>{@code
 * Application.builder("shop")
 *     .functions(variables -> StatefulFunctions.builder()...build())
 *     .egress(ORDERS, "ORDERS_QUEUE_URL", "the orders queue")
 *     .pipeline("fraud-check", "TRANSACTIONS_STREAM", wiring -> BatchPipeline.builder(...)...)
 *     .build();
 * }</pre>
 *
 * <p>On AWS the wiring reads {@code STATEKIT_TABLE}, {@code STATEKIT_QUEUE_URL}, {@code
 * STATEKIT_DEAD_LETTER_QUEUE_URL}, the schedule's rule {@code STATEKIT_SCHEDULE_RULE}, each
 * egress's queue variable, each pipeline's stream variable and the optional {@code
 * STATEKIT_BATCH_TIMEOUT_SECONDS}. Immutable.
 */
public final class Application {
  /** The variable that names an application's {@link StateKitApplication} class. */
  public static final String VARIABLE = "STATEKIT_APPLICATION";

  private final String name;
  private final Function<Variables, StatefulFunctions> functions;
  private final List<EgressQueue> egress;
  private final List<PipelineDeclaration> pipelines;
  private final Map<String, String> localSettings;
  private final List<String> priming;
  private final Scenario scenario;
  private final Map<String, String> activityLogs;

  private Application(Builder builder) {
    this.activityLogs = Map.copyOf(builder.activityLogs);
    this.name = builder.name;
    this.functions = builder.functions;
    this.egress = List.copyOf(builder.egress);
    this.pipelines = List.copyOf(builder.pipelines);
    this.localSettings = Map.copyOf(builder.localSettings);
    this.priming = List.copyOf(builder.priming);
    this.scenario = builder.scenario;
  }

  /**
   * Starts a declaration.
   *
   * @param name the application's name (letters, digits, '.', '_', '-'), for logs and the local
   *     runner
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Loads the declaration the class {@code className} makes (a {@link StateKitApplication} with a
   * public no-argument constructor).
   *
   * @throws IllegalStateException saying what is wrong with the class
   */
  public static Application load(String className, ClassLoader loader) {
    return Declarations.load(className, loader);
  }

  /**
   * The declaration named by {@value #VARIABLE} in {@code variables}, its class looked up through
   * the thread's context class loader (where a host such as the local runner puts the application's
   * code), else the one that loaded StateKit.
   */
  public static Application fromVariables(Variables variables) {
    String className = variables.required(VARIABLE, "the application's StateKitApplication class");
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null && context != Application.class.getClassLoader()) {
      Application found = Declarations.loadIfVisible(className, context);
      if (found != null) {
        return found;
      }
    }
    return load(className, Application.class.getClassLoader());
  }

  /** The application's name. */
  public String name() {
    return name;
  }

  /** The functions, as the application builds them from {@code variables}. */
  public StatefulFunctions functions(Variables variables) {
    return Objects.requireNonNull(
        functions.apply(variables), name + "'s functions(...) built no registry");
  }

  /** The egresses sent to queues, in declaration order; every other egress goes to the log. */
  public List<EgressQueue> egressQueues() {
    return egress;
  }

  /** The pipelines, in declaration order. */
  public List<PipelineDeclaration> pipelines() {
    return pipelines;
  }

  /** The pipeline of this name, if declared. */
  public Optional<PipelineDeclaration> pipeline(String pipelineName) {
    return pipelines.stream().filter(p -> p.name().equals(pipelineName)).findFirst();
  }

  /** The pipelines' names. */
  public List<String> pipelineNames() {
    return pipelines.stream().map(PipelineDeclaration::name).toList();
  }

  /**
   * What the local runner sets instead of the template's values (only for variables the template
   * sets): one process runs every batch, so timings made for Lambda can be shorter there.
   */
  public Map<String, String> localSettings() {
    return localSettings;
  }

  /** The payloads run through an offline copy before a SnapStart snapshot, in order. */
  public List<String> priming() {
    return priming;
  }

  /**
   * The JDK loggers whose records the local runner shows as activity lines (logger name to label),
   * such as a pipeline's window results.
   */
  public Map<String, String> activityLogs() {
    return activityLogs;
  }

  /** The scenario the local runner's {@code demo} plays, if the application has one. */
  public Optional<Scenario> scenario() {
    return Optional.ofNullable(scenario);
  }

  /**
   * The entry point of the application's event sources on AWS, from {@code variables}: the ingress
   * queue's batches (that queue only), each pipeline's stream (that stream only), the schedule's
   * rule (timer sweep and the pipelines' ticks) and the StateFun requests of the function URL.
   */
  public EntryPoint entryPoint(Variables variables) {
    return AwsWiring.of(this, variables).eventsEntryPoint();
  }

  /**
   * {@link #entryPoint(Variables)}, each invocation its runtime runs shown to {@code observer} (the
   * local runner's console).
   */
  public EntryPoint entryPoint(Variables variables, InvocationObserver observer) {
    return AwsWiring.of(this, variables, observer).eventsEntryPoint();
  }

  /**
   * The entry point producers invoke directly: ingress envelopes and nothing else, so that being
   * allowed to invoke it is not being allowed to pass an event off as a queue's or a stream's.
   */
  public EntryPoint ingressEntryPoint(Variables variables) {
    return AwsWiring.of(this, variables).ingressEntryPoint();
  }

  /** {@link #ingressEntryPoint(Variables)}, each invocation shown to {@code observer}. */
  public EntryPoint ingressEntryPoint(Variables variables, InvocationObserver observer) {
    return AwsWiring.of(this, variables, observer).ingressEntryPoint();
  }

  /**
   * The application with nothing but the JDK: state, timers and queues in memory, queue egresses
   * collected, pipelines over an in-memory store reading the Kinesis events of any stream.
   *
   * @param variables the application's own settings (the template's plain values)
   * @param clock the clock of expiry, delays, queue visibility and idle shards
   */
  public InMemoryApplication inMemory(Variables variables, Clock clock) {
    return InMemoryApplication.wire(this, variables, clock, InvocationObserver.NONE);
  }

  /**
   * Like {@link #inMemory(Variables, Clock)}, with {@code observer} seeing every invocation the
   * runtime runs (the local runner's console).
   */
  public InMemoryApplication inMemory(
      Variables variables, Clock clock, InvocationObserver observer) {
    return InMemoryApplication.wire(this, variables, clock, observer);
  }

  /**
   * The name of the scheduled task that ticks pipeline {@code pipelineName}: {@code <name>-tick}.
   */
  public static String tickTask(String pipelineName) {
    return pipelineName + "-tick";
  }

  @Override
  public String toString() {
    return "Application " + name + " (pipelines " + pipelineNames() + ")";
  }

  /** Declares an {@link Application}; validated by {@link #build()}. */
  public static final class Builder {
    private final String name;
    private Function<Variables, StatefulFunctions> functions;
    private final List<EgressQueue> egress = new ArrayList<>();
    private final List<PipelineDeclaration> pipelines = new ArrayList<>();
    private final Map<String, String> localSettings = new LinkedHashMap<>();
    private final List<String> priming = new ArrayList<>();
    private Scenario scenario;
    private final Map<String, String> activityLogs = new LinkedHashMap<>();

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
        throw new IllegalArgumentException(
            "An application's name is 1 to 64 letters, digits, '.', '_' or '-', got '"
                + name
                + "'");
      }
      this.name = name;
    }

    /** The functions, the same registry whatever the variables. */
    public Builder functions(StatefulFunctions registry) {
      Objects.requireNonNull(registry, "registry");
      return functions(variables -> registry);
    }

    /** The functions, built from the application's variables (settings such as hold times). */
    public Builder functions(Function<Variables, StatefulFunctions> factory) {
      if (this.functions != null) {
        throw new IllegalStateException("functions(...) is already set; declare one registry");
      }
      this.functions = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * Sends the records of egress {@code egressType} to the SQS queue whose URL variable {@code
     * queueVariable} holds (a FIFO queue deduplicates a record delivered again).
     *
     * @param meaning what the queue is, for the message when the variable is missing
     */
    public Builder egress(TypeName egressType, String queueVariable, String meaning) {
      EgressQueue queue = new EgressQueue(egressType, queueVariable, meaning);
      for (EgressQueue other : egress) {
        if (other.egress().equals(egressType)) {
          throw new IllegalArgumentException("The egress " + egressType + " is declared twice");
        }
      }
      egress.add(queue);
      return this;
    }

    /**
     * A batch pipeline reading the Kinesis stream named (by name or ARN) in {@code streamVariable},
     * built by {@code factory} over the store and runtime the wiring gives it. Its tick is the
     * scheduled task {@code <name>-tick}.
     */
    public Builder pipeline(String pipelineName, String streamVariable, PipelineFactory factory) {
      PipelineDeclaration pipeline = new PipelineDeclaration(pipelineName, streamVariable, factory);
      if (pipelines.stream().anyMatch(p -> p.name().equals(pipelineName))) {
        throw new IllegalArgumentException("The pipeline " + pipelineName + " is declared twice");
      }
      pipelines.add(pipeline);
      return this;
    }

    /** A value the local runner sets instead of the template's (see {@link #localSettings()}). */
    public Builder localSetting(String variable, String value) {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(value, "value");
      localSettings.put(variable, value);
      return this;
    }

    /** A payload to prime before a SnapStart snapshot (an envelope, an SQS or Kinesis event). */
    public Builder priming(String payload) {
      priming.add(Objects.requireNonNull(payload, "payload"));
      return this;
    }

    /**
     * Shows the records of the logger {@code logger} ({@link dev.statekit.telemetry.Log}, and the
     * loggers named below it) as the local runner's activity lines, labelled {@code label}.
     */
    public Builder activityLog(String logger, String label) {
      activityLogs.put(Objects.requireNonNull(logger, "logger"), Objects.requireNonNull(label));
      return this;
    }

    /** The scenario the local runner's {@code demo} plays. */
    public Builder scenario(Scenario scenario) {
      this.scenario = Objects.requireNonNull(scenario, "scenario");
      return this;
    }

    /**
     * The declaration.
     *
     * @throws IllegalStateException if no functions were declared
     */
    public Application build() {
      if (functions == null) {
        throw new IllegalStateException(
            "Application " + name + " declares no functions: call functions(...)");
      }
      return new Application(this);
    }
  }
}
