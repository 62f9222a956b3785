package dev.statekit.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The template of an application the archetype generates gives its delayed messages their wake-up
 * queue, as the kit's own template does: without one, each delayed message waits for the minute
 * tick's sweep instead of arriving on time.
 */
class ArchetypeTemplateTest {
  private static final Path TEMPLATE =
      Path.of(
          "..", "archetype", "src", "main", "resources", "archetype-resources", "template.yaml");

  @Test
  void theApplicationFunctionHasAStandardWakeUpQueueItsEventsComeFrom() throws Exception {
    Template template = Template.load(TEMPLATE);
    FunctionDef app =
        template.functions().stream()
            .filter(f -> f.handlerClass().equals("dev.statekit.handlers.ApplicationHandler"))
            .findFirst()
            .orElseThrow();

    JsonNode url = app.environment().get("STATEKIT_WAKE_UP_QUEUE_URL");
    assertNotNull(url, app.logicalId() + " sets no STATEKIT_WAKE_UP_QUEUE_URL");
    String queue = url.path("Ref").asText();
    Resource resource = template.resource(queue).orElseThrow();
    assertEquals("AWS::SQS::Queue", resource.type());
    assertFalse(resource.flag("FifoQueue", false), "per-message delays need a standard queue");

    List<EventSource> mappings =
        app.events().stream()
            .filter(e -> e.type().equals("SQS"))
            .filter(
                e -> e.properties().path("Queue").path("Fn::GetAtt").path(0).asText().equals(queue))
            .toList();
    assertEquals(1, mappings.size(), "one event source mapping reads " + queue);
    assertTrue(
        mappings
            .get(0)
            .properties()
            .path("FunctionResponseTypes")
            .toString()
            .contains("ReportBatchItemFailures"));
    assertTrue(
        app.policies().toString().contains(queue),
        app.logicalId() + " may not send wake-ups to " + queue);
  }
}
