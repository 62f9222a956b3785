package dev.statekit.local;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.application.Application;
import dev.statekit.application.InMemoryApplication;
import dev.statekit.application.PipelineActivity;
import dev.statekit.bus.AddressResolver;
import dev.statekit.bus.BusMessage;
import dev.statekit.bus.EnvelopeCodec;
import dev.statekit.bus.InMemoryMessageBus;
import dev.statekit.bus.InvalidEnvelopeException;
import dev.statekit.runtime.Ingress;
import dev.statekit.stream.PipelineGraph;
import dev.statekit.stream.lambda.SplitState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The console's answers for an application wired in memory: everything, resend included. */
final class InMemoryConsole implements ConsoleData {
  private final Application application;
  private final InMemoryApplication app;
  private final InvocationLog log;
  private final String backend;

  InMemoryConsole(
      Application application, InMemoryApplication app, InvocationLog log, String backend) {
    this.application = application;
    this.app = app;
    this.log = log;
    this.backend = backend;
  }

  @Override
  public ObjectNode overview() {
    Map<String, PipelineGraph> graphs = new LinkedHashMap<>();
    app.pipelines().forEach((name, activity) -> graphs.put(name, activity.pipeline().graph()));
    return ConsoleJson.overview(
        application, backend, false, app.functions(), graphs, log.edges(), true);
  }

  @Override
  public ObjectNode queues() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode queues = root.putArray("queues");
    queue(queues, "ingress", app.ingress());
    ObjectNode wakeUps = queues.addObject();
    wakeUps.put("name", "wake-ups");
    wakeUps.put("depth", app.wakeUps().size());
    wakeUps.putNull("inFlight");
    queue(queues, "dead letters", app.deadLetters());
    ArrayNode letters = root.putArray("deadLetters");
    for (BusMessage m : app.deadLetters().peekAll()) {
      letters.add(ConsoleJson.deadLetter(m.deduplicationId(), m.body(), m.attributes()));
    }
    return root;
  }

  private static void queue(ArrayNode queues, String name, InMemoryMessageBus bus) {
    ObjectNode q = queues.addObject();
    q.put("name", name);
    q.put("depth", bus.size());
    q.put("inFlight", bus.inFlight());
  }

  @Override
  public ObjectNode pipelines() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode list = root.putArray("pipelines");
    long now = System.currentTimeMillis();
    for (Map.Entry<String, PipelineActivity> entry : app.pipelines().entrySet()) {
      PipelineActivity activity = entry.getValue();
      ObjectNode p = list.addObject();
      p.put("name", entry.getKey());
      p.put("batches", activity.batches());
      p.put("records", activity.applied());
      p.put("repeats", activity.repeats());
      p.put("late", activity.late());
      p.put("windowsFired", activity.windowsFired());
      p.put("failedBatches", activity.failedBatches());
      p.put("ticks", activity.ticks());
      ArrayNode splits = p.putArray("splits");
      for (SplitState split : activity.pipeline().splits()) {
        splits.add(ConsoleJson.split(split, now));
      }
    }
    return root;
  }

  @Override
  public ObjectNode address(String address) {
    return new StateView(app.functions(), app.store()).tree(address);
  }

  @Override
  public ObjectNode addresses() {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    ArrayNode list = root.putArray("addresses");
    log.addresses().forEach(list::add);
    return root;
  }

  @Override
  public ObjectNode invocations(long after, int limit) {
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    root.put("latest", log.sequence());
    root.put("capacity", InvocationLog.CAPACITY);
    ArrayNode list = root.putArray("invocations");
    log.after(after, limit).forEach(list::add);
    return root;
  }

  @Override
  public ObjectNode metrics() {
    return log.metrics(System.currentTimeMillis() / 1000, 120);
  }

  @Override
  public synchronized ObjectNode resend(String id, String body) {
    BusMessage letter =
        app.deadLetters().peekAll().stream()
            .filter(m -> m.deduplicationId().equals(id))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "There is no dead letter " + id + " (resent already?)"));
    String envelope = body == null || body.isBlank() ? letter.body() : body;
    EnvelopeCodec.Envelope parsed;
    try {
      parsed =
          EnvelopeCodec.parse(EnvelopeCodec.tree(envelope), new AddressResolver(app.functions()));
    } catch (InvalidEnvelopeException e) {
      throw new IllegalArgumentException(
          "Not an ingress envelope ({\"target\", \"typename\", \"value\" or \"base64\", \"id\"}): "
              + e.getMessage()
              + "; the dead letter stays where it is");
    }
    app.ingress()
        .send(
            java.util.List.of(
                new BusMessage(
                    Ingress.groupId(parsed.target()), UUID.randomUUID().toString(), envelope)));
    app.deadLetters().take(id);
    ObjectNode root = ConsoleJson.JSON.createObjectNode();
    root.put("resent", id);
    root.put("target", parsed.target().toString());
    root.put("edited", !envelope.equals(letter.body()));
    return root;
  }
}
