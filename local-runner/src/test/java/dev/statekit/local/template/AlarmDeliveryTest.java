package dev.statekit.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The alarms of template.yaml can reach whoever subscribes to their topic (reliability.md,
 * invariant 5: failures are visible; docs/operations.md: "Alarms, to the SNS topic of output
 * AlarmTopicArn (subscribe to it)").
 *
 * <p>AWS: a CloudWatch alarm publishes to an SSE-KMS encrypted SNS topic only if the topic's KMS
 * key policy lets the service principal {@code cloudwatch.amazonaws.com} use the key ({@code
 * kms:Decrypt}, {@code kms:GenerateDataKey*}); the AWS managed key {@code alias/aws/sns} has a key
 * policy nobody can change that grants no AWS service principal, so an alarm's action on a topic
 * encrypted with it fails with a KMS AccessDeniedException in the alarm's history and no
 * notification is sent (Amazon SNS Developer Guide, "Key management", compatibility with AWS
 * services: https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html).
 */
class AlarmDeliveryTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyAlarmTopicIsOneCloudWatchMayPublishTo() throws Exception {
    Template template = Template.load(ROOT.resolve("template.yaml"));
    List<String> problems = new ArrayList<>();
    int actions = 0;
    for (Resource alarm : template.resources("AWS::CloudWatch::Alarm")) {
      for (String list : List.of("AlarmActions", "OKActions", "InsufficientDataActions")) {
        for (JsonNode action : alarm.properties().path(list)) {
          String topicId = Intrinsics.referencedLogicalId(action);
          Resource topic = template.resource(topicId).orElse(null);
          if (topic == null || !topic.type().equals("AWS::SNS::Topic")) {
            continue;
          }
          actions++;
          JsonNode key = topic.properties().get("KmsMasterKeyId");
          if (key == null) {
            continue; // unencrypted: CloudWatch publishes
          }
          if (key.isTextual()) {
            String name = key.asText();
            if (name.equals("alias/aws/sns") || name.endsWith(":alias/aws/sns")) {
              problems.add(
                  alarm.logicalId()
                      + " -> "
                      + topicId
                      + ": encrypted with the AWS managed key alias/aws/sns, whose key policy"
                      + " does not let cloudwatch.amazonaws.com use it: the alarm's notification"
                      + " is never delivered");
            }
            continue;
          }
          // A customer managed key of this template: its policy must grant CloudWatch.
          Resource kmsKey = template.resource(Intrinsics.referencedLogicalId(key)).orElse(null);
          if (kmsKey == null || !grantsCloudWatch(kmsKey.properties().path("KeyPolicy"))) {
            problems.add(
                alarm.logicalId()
                    + " -> "
                    + topicId
                    + ": its KMS key's policy does not grant cloudwatch.amazonaws.com"
                    + " kms:Decrypt and kms:GenerateDataKey*");
          }
        }
      }
    }
    assertTrue(actions >= 5, "alarm actions on SNS topics checked: " + actions);
    assertEquals(List.of(), problems);
  }

  private static boolean grantsCloudWatch(JsonNode policy) {
    for (JsonNode statement : policy.path("Statement")) {
      String text = statement.toString();
      if (statement.path("Effect").asText().equals("Allow")
          && text.contains("cloudwatch.amazonaws.com")
          && text.contains("kms:Decrypt")
          && text.contains("kms:GenerateDataKey")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where an event source mapping records the batches Lambda gave up on, an alarm watches: their
   * records wait for a replay, and the stream keeps them for its retention only. Nothing watched
   * TransactionsFailures; only the watermark lag hinted at it, ten minutes late and without saying
   * why.
   */
  @Test
  void everyOnFailureDestinationIsWatchedByAnAlarm() throws Exception {
    Template template = Template.load(ROOT.resolve("template.yaml"));
    List<String> destinations = new ArrayList<>();
    for (Resource function : template.resources("AWS::Serverless::Function")) {
      for (JsonNode event : function.properties().path("Events")) {
        JsonNode destination =
            event
                .path("Properties")
                .path("DestinationConfig")
                .path("OnFailure")
                .path("Destination");
        if (!destination.isMissingNode()) {
          destinations.add(Intrinsics.referencedLogicalId(destination));
        }
      }
    }
    List<String> watched = new ArrayList<>();
    for (Resource alarm : template.resources("AWS::CloudWatch::Alarm")) {
      for (JsonNode dimension : alarm.properties().path("Dimensions")) {
        watched.add(Intrinsics.referencedLogicalId(dimension.path("Value")));
      }
    }
    assertTrue(!destinations.isEmpty(), "the template has on-failure destinations");
    List<String> unwatched = new ArrayList<>(destinations);
    unwatched.removeAll(watched);
    assertEquals(List.of(), unwatched, "on-failure destinations no alarm watches");
  }
}
