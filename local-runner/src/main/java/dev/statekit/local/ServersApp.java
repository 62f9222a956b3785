package dev.statekit.local;

import dev.statekit.application.Application;
import dev.statekit.application.EgressQueue;
import dev.statekit.application.PipelineDeclaration;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.types.TypeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The template deployed on servers (embedded, LocalStack or AWS). */
final class ServersApp implements LocalApp {
  private final LocalDeployment deployment;
  private final InvocationLog invocations = new InvocationLog();
  private volatile StatefulFunctions functions;
  private final SqsClient sqs;
  private EventSources sources;
  private Application application;

  ServersApp(LocalDeployment deployment) {
    this.deployment = deployment;
    this.sqs = deployment.backend().sqsClient();
    invocations.decodeWith(this::functions);
    deployment.observeWith(invocations);
  }

  /** The functions, to decode the values the invocations show (looked up once). */
  private StatefulFunctions functions() {
    StatefulFunctions known = functions;
    if (known == null) {
      known = deployment.stateView().functions();
      functions = known;
    }
    return known;
  }

  @Override
  public synchronized Application application() {
    if (application == null) {
      application = LocalApp.declared(deployment.template());
    }
    return application;
  }

  private FunctionDef applicationDefinition() {
    return ApplicationCode.applicationFunction(deployment.template())
        .or(() -> deployment.urlFunction())
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "No function of the template runs the application (sets "
                        + Application.VARIABLE
                        + " or has a function URL)"));
  }

  @Override
  public LocalFunction applicationFunction() {
    return deployment.function(applicationDefinition().logicalId());
  }

  @Override
  public Optional<String> setting(String variable) {
    return Optional.ofNullable(deployment.environment(applicationDefinition()).get(variable));
  }

  LocalDeployment deployment() {
    return deployment;
  }

  @Override
  public String describe() {
    return deployment.backend().describe();
  }

  @Override
  public LocalFunction function(String name) {
    return deployment.names().contains(name) ? deployment.function(name) : null;
  }

  @Override
  public List<String> functionNames() {
    return deployment.names();
  }

  @Override
  public String urlFunction() {
    return deployment.urlFunction().map(f -> f.logicalId()).orElse(null);
  }

  @Override
  public List<String> startEventSources(Activity activity, Duration tick, int retryAfterSeconds) {
    sources = EventSources.start(deployment, activity, tick, retryAfterSeconds);
    return sources.describe();
  }

  @Override
  public List<ScheduleTicker> tickers() {
    return sources == null ? List.of() : sources.tickers();
  }

  @Override
  public void enqueue(dev.statekit.function.Address target, byte[] envelope) {
    String body = new String(envelope, java.nio.charset.StandardCharsets.UTF_8);
    sqs.sendMessage(
        b ->
            b.queueUrl(appVariable("STATEKIT_QUEUE_URL"))
                .messageBody(body)
                .messageGroupId(dev.statekit.runtime.Ingress.groupId(target))
                .messageDeduplicationId(java.util.UUID.randomUUID().toString()));
  }

  @Override
  public int pendingMessages() {
    String url = appVariable("STATEKIT_QUEUE_URL");
    var attributes =
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(url)
                        .attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes();
    return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Integer.parseInt(
            attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  @Override
  public List<String> takeEgress(TypeName egress) {
    EgressQueue queue =
        application().egressQueues().stream()
            .filter(q -> q.egress().equals(egress))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        application().name() + " sends no egress " + egress + " to a queue"));
    return drain(appVariable(queue.queueVariable()));
  }

  @Override
  public StateView stateView() {
    return deployment.stateView();
  }

  @Override
  public String feed(String pipeline, List<byte[]> records) {
    PipelineDeclaration declared =
        application()
            .pipeline(pipeline)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "There is no pipeline '"
                            + pipeline
                            + "'; choose one of "
                            + application().pipelineNames()));
    String named = appVariable(declared.streamVariable());
    // The variable may hold the stream's ARN (!GetAtt ...Arn): PutRecords takes its name.
    String stream = named.substring(named.lastIndexOf('/') + 1);
    KinesisClient kinesis = deployment.backend().kinesisClient();
    for (int i = 0; i < records.size(); i += 500) {
      List<PutRecordsRequestEntry> entries = new ArrayList<>();
      for (byte[] record : records.subList(i, Math.min(records.size(), i + 500))) {
        entries.add(
            PutRecordsRequestEntry.builder()
                .partitionKey(KinesisFeed.partitionKey(record))
                .data(SdkBytes.fromByteArray(record))
                .build());
      }
      kinesis.putRecords(b -> b.streamName(stream).records(entries));
    }
    return records.size()
        + " records put on "
        + stream
        + ": the emulated event source mapping hands them to the function";
  }

  @Override
  public ConsoleData console() {
    try {
      return new ServersConsole(
          deployment,
          application(),
          deployment.environment(applicationDefinition()),
          deployment.backend().mode() == Backend.Mode.AWS,
          invocations);
    } catch (IllegalStateException e) {
      return null;
    }
  }

  @Override
  public void close() {
    if (sources != null) {
      sources.close();
    }
  }

  private String appVariable(String name) {
    FunctionDef function = applicationDefinition();
    String value = deployment.environment(function).get(name);
    if (value == null) {
      throw new IllegalStateException(
          function.logicalId() + " has no " + name + " in the template's environment");
    }
    return value;
  }

  @Override
  public List<String> takeDeadLetters() {
    List<String> letters = new ArrayList<>();
    for (Message m :
        receiveAll(appVariable(dev.statekit.handlers.RuntimeEnvironment.DEAD_LETTER_QUEUE_URL))) {
      Map<String, String> attributes = new java.util.LinkedHashMap<>();
      m.messageAttributes().forEach((name, value) -> attributes.put(name, value.stringValue()));
      letters.add(DeadLetterLine.of(m.body(), attributes));
    }
    return letters;
  }

  private List<String> drain(String queueUrl) {
    List<String> bodies = new ArrayList<>();
    receiveAll(queueUrl).forEach(m -> bodies.add(m.body()));
    return bodies;
  }

  /** Receives and deletes every message the queue has. */
  private List<Message> receiveAll(String queueUrl) {
    List<Message> all = new ArrayList<>();
    List<Message> messages;
    do {
      messages =
          sqs.receiveMessage(
                  b ->
                      b.queueUrl(queueUrl)
                          .maxNumberOfMessages(10)
                          .waitTimeSeconds(0)
                          .messageAttributeNames("All"))
              .messages();
      for (Message m : messages) {
        all.add(m);
        sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle()));
      }
    } while (!messages.isEmpty());
    return all;
  }
}
