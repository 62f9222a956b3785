package dev.statekit.local;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.application.Application;
import dev.statekit.application.PipelineActivity;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.Variables;
import dev.statekit.runtime.Ingress;
import dev.statekit.stream.PipelineGraph;
import dev.statekit.stream.lambda.BatchStore;
import dev.statekit.stream.lambda.SplitState;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The console's answers for the template deployed on servers (embedded, LocalStack): state and
 * pipelines' splits read from the table, queues' depths and dead letters from SQS; the invocations,
 * the messages seen between functions and the charts from the handlers' observer when serve runs
 * them (the {@code console} command runs nothing: none). Dead letters are listed by receiving them
 * with a visibility timeout of 0 (they stay, each such look counts as a receive), at most 10; a
 * resend receives the letter, sends it to the ingress queue and deletes it.
 */
final class ServersConsole implements ConsoleData {
  private final LocalDeployment deployment;
  private final Application application;
  private final Map<String, String> environment;
  private final SqsClient sqs;
  private final boolean readOnly;
  private final InvocationLog log;
  private Map<String, PipelineGraph> graphs;

  ServersConsole(
      LocalDeployment deployment,
      Application application,
      Map<String, String> environment,
      boolean readOnly,
      InvocationLog log) {
    this.log = log;
    this.deployment = deployment;
    this.application = application;
    this.environment = environment;
    this.sqs = deployment.backend().sqsClient();
    this.readOnly = readOnly;
  }

  @Override
  public ObjectNode overview() {
    return ConsoleJson.overview(
        application,
        deployment.backend().describe(),
        readOnly,
        deployment.stateView().functions(),
        graphs(),
        log == null ? Map.of() : log.edges(),
        log != null);
  }

  /** The pipelines' graphs, from the declaration (what it runs does not depend on the backend). */
  private synchronized Map<String, PipelineGraph> graphs() {
    if (graphs == null) {
      Map<String, PipelineGraph> built = new LinkedHashMap<>();
      Map<String, PipelineActivity> declared =
          application.inMemory(Variables.of(environment), Clock.systemUTC()).pipelines();
      declared.forEach((name, activity) -> built.put(name, activity.pipeline().graph()));
      graphs = built;
    }
    return graphs;
  }

  @Override
  public ObjectNode queues() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode queues = root.putArray("queues");
    queue(queues, "ingress", environment.get(RuntimeEnvironment.QUEUE_URL));
    queue(queues, "wake-ups", environment.get(RuntimeEnvironment.WAKE_UP_QUEUE_URL));
    String deadLetters = environment.get(RuntimeEnvironment.DEAD_LETTER_QUEUE_URL);
    queue(queues, "dead letters", deadLetters);
    ArrayNode letters = root.putArray("deadLetters");
    if (deadLetters != null) {
      for (Message m : look(deadLetters, 0)) {
        letters.add(ConsoleJson.deadLetter(id(m), m.body(), attributes(m)));
      }
    }
    return root;
  }

  private void queue(ArrayNode queues, String name, String url) {
    if (url == null) {
      return;
    }
    Map<QueueAttributeName, String> attributes =
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(url)
                        .attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes();
    int visible =
        Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    int inFlight =
        Integer.parseInt(
            attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    ObjectNode q = queues.addObject();
    q.put("name", name);
    q.put("depth", visible + inFlight);
    q.put("inFlight", inFlight);
  }

  private List<Message> look(String url, int visibilitySeconds) {
    return sqs.receiveMessage(
            b ->
                b.queueUrl(url)
                    .maxNumberOfMessages(10)
                    .waitTimeSeconds(0)
                    .visibilityTimeout(visibilitySeconds)
                    .messageAttributeNames("All")
                    .messageSystemAttributeNames(
                        MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID))
        .messages();
  }

  /** A dead letter's id: its deduplication id (the runtime's, stable), else SQS's message id. */
  private static String id(Message m) {
    String dedup = m.attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID);
    return dedup != null ? dedup : m.messageId();
  }

  private static Map<String, String> attributes(Message m) {
    Map<String, String> attributes = new LinkedHashMap<>();
    m.messageAttributes().forEach((name, value) -> attributes.put(name, value.stringValue()));
    return attributes;
  }

  @Override
  public ObjectNode pipelines() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode list = root.putArray("pipelines");
    String table = environment.get(RuntimeEnvironment.TABLE);
    if (table == null) {
      return root;
    }
    BatchStore store = new DynamoDbBatchStore(deployment.backend().dynamoDbClient(), table);
    long now = System.currentTimeMillis();
    for (String name : application.pipelineNames()) {
      ObjectNode p = list.addObject();
      p.put("name", name);
      // Totals are counted by the process that runs the batches; only the store is read here.
      for (String total :
          List.of(
              "batches", "records", "repeats", "late", "windowsFired", "failedBatches", "ticks")) {
        p.putNull(total);
      }
      ArrayNode splits = p.putArray("splits");
      for (SplitState split : store.readSplits(name)) {
        splits.add(ConsoleJson.split(split, now));
      }
    }
    return root;
  }

  @Override
  public ObjectNode address(String address) {
    return deployment.stateView().tree(address);
  }

  @Override
  public ObjectNode addresses() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode list = root.putArray("addresses");
    if (log != null) {
      log.addresses().forEach(list::add);
    }
    return root;
  }

  @Override
  public ObjectNode invocations(long after, int limit) {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    root.put("latest", log == null ? 0 : log.sequence());
    root.put("capacity", log == null ? 0 : InvocationLog.CAPACITY);
    ArrayNode list = root.putArray("invocations");
    if (log != null) {
      log.after(after, limit).forEach(list::add);
    }
    return root;
  }

  @Override
  public ObjectNode metrics() {
    return (log == null ? new InvocationLog(1) : log)
        .metrics(System.currentTimeMillis() / 1000, 120);
  }

  @Override
  public synchronized ObjectNode resend(String id, String body) {
    if (readOnly) {
      throw new IllegalStateException(
          "This console is read only: start it with --allow-writes to resend dead letters");
    }
    String deadLetters = environment.get(RuntimeEnvironment.DEAD_LETTER_QUEUE_URL);
    String ingress = environment.get(RuntimeEnvironment.QUEUE_URL);
    if (deadLetters == null || ingress == null) {
      throw new IllegalArgumentException("The application function names no dead-letter queue");
    }
    // The letter is held for 30 s while it is resent (a second resend of it finds nothing); the
    // others received with it are let go at once, else they would vanish from view and refuse
    // their own resends for as long.
    List<Message> received = look(deadLetters, 30);
    Message letter = null;
    for (Message m : received) {
      if (letter == null && id(m).equals(id)) {
        letter = m;
      } else {
        sqs.changeMessageVisibility(
            b -> b.queueUrl(deadLetters).receiptHandle(m.receiptHandle()).visibilityTimeout(0));
      }
    }
    if (letter == null) {
      throw new IllegalArgumentException(
          "There is no dead letter " + id + " among the first 10 (resent already?)");
    }
    String receipt = letter.receiptHandle();
    String envelope = body == null || body.isBlank() ? letter.body() : body;
    EnvelopeCodec.Envelope parsed;
    try {
      parsed =
          EnvelopeCodec.parse(
              EnvelopeCodec.tree(envelope),
              new AddressResolver(deployment.stateView().functions()));
    } catch (InvalidEnvelopeException e) {
      sqs.changeMessageVisibility(
          b -> b.queueUrl(deadLetters).receiptHandle(receipt).visibilityTimeout(0));
      throw new IllegalArgumentException(
          "Not an ingress envelope ({\"target\", \"typename\", \"value\" or \"base64\", \"id\"}): "
              + e.getMessage()
              + "; the dead letter stays where it is");
    }
    sqs.sendMessage(
        b ->
            b.queueUrl(ingress)
                .messageBody(envelope)
                .messageGroupId(Ingress.groupId(parsed.target()))
                .messageDeduplicationId(UUID.randomUUID().toString()));
    sqs.deleteMessage(b -> b.queueUrl(deadLetters).receiptHandle(receipt));
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    root.put("resent", id);
    root.put("target", parsed.target().toString());
    root.put("edited", !envelope.equals(letter.body()));
    return root;
  }
}
