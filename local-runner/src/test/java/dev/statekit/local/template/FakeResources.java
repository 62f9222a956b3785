package dev.statekit.local.template;

import java.lang.reflect.Constructor;
import java.util.Map;

/** The template's resources with made-up names, for tests that only resolve references. */
final class FakeResources {
  private FakeResources() {}

  static LocalResources of(Template template) throws Exception {
    Constructor<LocalResources> constructor = LocalResources.class.getDeclaredConstructor();
    constructor.setAccessible(true);
    LocalResources resources = constructor.newInstance();
    for (Resource r : template.resources()) {
      String name = "test-" + r.logicalId();
      String arn =
          switch (r.type()) {
            case "AWS::SQS::Queue" -> "arn:aws:sqs:us-east-1:000000000000:" + name;
            case "AWS::Kinesis::Stream" -> "arn:aws:kinesis:us-east-1:000000000000:stream/" + name;
            case "AWS::DynamoDB::Table" -> "arn:aws:dynamodb:us-east-1:000000000000:table/" + name;
            default -> "arn:aws:test:us-east-1:000000000000:" + name;
          };
      String ref =
          r.type().equals("AWS::SQS::Queue") ? "http://127.0.0.1:9324/000000000000/" + name : name;
      resources
          .all()
          .put(
              r.logicalId(),
              new LocalResource(
                  r.logicalId(),
                  r.type(),
                  ref,
                  Map.of("Arn", arn, "QueueName", name, "StreamArn", arn + "/stream/x")));
    }
    return resources;
  }
}
