package dev.statekit.local.emulation;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statekit.local.template.EventSource;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Resource;
import dev.statekit.local.template.Template;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lambda refuses to create an SQS event source mapping whose queue hides a message for less than
 * the function's Timeout, or whose BatchSize its queue kind or batching window does not allow; the
 * local runner polled such a queue all the same, so a template that worked locally failed to deploy
 * (and, with the visibility under the timeout, handed a message still running to a second
 * invocation).
 */
class SqsMappingRulesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static FunctionDef function(long timeoutSeconds) {
    return new FunctionDef(
        "App", "a.B::handle", Map.of(), List.of(), JSON.nullNode(), false, 512, timeoutSeconds);
  }

  private static Resource queue(Map<String, Object> properties) {
    return new Resource("Ingress", "AWS::SQS::Queue", JSON.valueToTree(properties));
  }

  private static EventSource event(Map<String, Object> properties) {
    ObjectNode node = JSON.valueToTree(properties);
    return new EventSource("Messages", "SQS", node);
  }

  @Test
  void aVisibilityTimeoutUnderTheFunctionsTimeoutIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SqsMappingRules.check(
                    function(60), event(Map.of()), queue(Map.of("VisibilityTimeout", 30))));

    assertTrue(e.getMessage().contains("App.Messages"), e.getMessage());
    assertTrue(e.getMessage().contains("VisibilityTimeout of 30 s"), e.getMessage());
    assertTrue(e.getMessage().contains("Timeout of 60 s"), e.getMessage());
  }

  @Test
  void theDefaultVisibilityTimeoutCountsAsThirtySeconds() {
    SqsMappingRules.check(function(30), event(Map.of()), queue(Map.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> SqsMappingRules.check(function(31), event(Map.of()), queue(Map.of())));
  }

  @Test
  void batchSizesLambdaRefusesAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SqsMappingRules.check(
                function(3), event(Map.of("BatchSize", 11)), queue(Map.of("FifoQueue", true))));
    assertThrows(
        IllegalArgumentException.class,
        () -> SqsMappingRules.check(function(3), event(Map.of("BatchSize", 100)), queue(Map.of())));
    assertThrows(
        IllegalArgumentException.class,
        () -> SqsMappingRules.check(function(3), event(Map.of("BatchSize", 0)), queue(Map.of())));
    SqsMappingRules.check(
        function(3),
        event(Map.of("BatchSize", 100, "MaximumBatchingWindowInSeconds", 1)),
        queue(Map.of()));
  }

  @Test
  void theShippedTemplatesPass() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    for (Path file :
        List.of(
            root.resolve("template.yaml"),
            root.resolve("archetype/src/main/resources/archetype-resources/template.yaml"))) {
      Template template = Template.load(file);
      int checked = 0;
      for (FunctionDef f : template.functions()) {
        for (EventSource e : f.events()) {
          if (e.type().equals("SQS")) {
            SqsMappingRules.check(f, e, template.resource(e.sourceLogicalId()).orElseThrow());
            checked++;
          }
        }
      }
      assertTrue(checked > 0, file + " has SQS mappings to check");
    }
  }
}
