package dev.statekit.telemetry;

/**
 * The metrics StateKit emits, their CloudWatch names and units. Function-runtime metrics carry the
 * dimension {@code Application}; pipeline metrics {@code Application} and {@code Pipeline}. No
 * address, key or split is ever a dimension (each distinct value is a metric CloudWatch bills).
 */
public enum Metric {
  /** Messages whose effects were committed (queue and direct invokes). */
  MESSAGES_APPLIED("MessagesApplied", Unit.COUNT, false),
  /** Messages dropped as repeats of messages applied before. */
  REPEATS_DROPPED("RepeatsDropped", Unit.COUNT, false),
  /** Dead letters sent to the dead-letter queue (messages and egress records). */
  DEAD_LETTERS("DeadLetters", Unit.COUNT, false),
  /** Queue messages that failed and come again. */
  MESSAGES_RETRIED("MessagesRetried", Unit.COUNT, false),
  /** Commits redone because a concurrent commit to the same address won. */
  COMMIT_CONFLICTS("CommitConflicts", Unit.COUNT, false),
  /** AWS requests the SDK sent again (throttled or failed attempts). */
  REQUEST_RETRIES("RequestRetries", Unit.COUNT, false),
  /** AWS requests throttled (a throttling error on an attempt). */
  THROTTLES("Throttles", Unit.COUNT, false),
  /** DynamoDB read capacity units, as the responses report them. */
  READ_CAPACITY("ReadCapacityUnits", Unit.COUNT, false),
  /** DynamoDB write capacity units, as the responses report them. */
  WRITE_CAPACITY("WriteCapacityUnits", Unit.COUNT, false),
  /**
   * Outboxes the timer sweep took over: left undelivered by their batches past the take-over time.
   */
  OUTBOXES_PENDING("OutboxesPending", Unit.COUNT, false),
  /** Delayed messages the timer sweep sent. */
  DELAYED_SENT("DelayedMessagesSent", Unit.COUNT, false),
  /** How long after its due time each delayed message was applied. */
  TIMER_LATENESS("TimerLateness", Unit.MILLISECONDS, false),
  /** Records a pipeline batch applied. */
  PIPELINE_RECORDS("PipelineRecords", Unit.COUNT, true),
  /** Window results a pipeline batch fired. */
  WINDOWS_FIRED("WindowsFired", Unit.COUNT, true),
  /** Records that arrived after their window's watermark had passed. */
  LATE_RECORDS("LateRecords", Unit.COUNT, true),
  /** Wall clock minus the watermark after a batch, one value per batch (so per split). */
  WATERMARK_LAG("WatermarkLag", Unit.MILLISECONDS, true),
  /** How long a pipeline batch took. */
  BATCH_DURATION("BatchDuration", Unit.MILLISECONDS, true);

  /** CloudWatch units StateKit uses (a subset of the units EMF accepts). */
  public enum Unit {
    COUNT("Count"),
    MILLISECONDS("Milliseconds");

    private final String cloudWatchName;

    Unit(String cloudWatchName) {
      this.cloudWatchName = cloudWatchName;
    }

    /** The unit's name in CloudWatch. */
    public String cloudWatchName() {
      return cloudWatchName;
    }
  }

  private final String metricName;
  private final Unit unit;
  private final boolean perPipeline;

  Metric(String metricName, Unit unit, boolean perPipeline) {
    this.metricName = metricName;
    this.unit = unit;
    this.perPipeline = perPipeline;
  }

  /** The metric's name in CloudWatch. */
  public String metricName() {
    return metricName;
  }

  /** Its unit. */
  public Unit unit() {
    return unit;
  }

  /** Whether it is recorded per pipeline (with the {@code Pipeline} dimension). */
  public boolean perPipeline() {
    return perPipeline;
  }
}
