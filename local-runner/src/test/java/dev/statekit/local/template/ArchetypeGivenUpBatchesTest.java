package dev.statekit.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A generated application's stream mapping gives batches up after {@code MaximumRetryAttempts}, as
 * the kit's own template does, so it must say where Lambda records them: docs/pipelines.md
 * ("Batches Lambda gives up on") says that when the table refused every attempt of a batch, "the
 * pipeline could record nothing and only the on-failure destination names it". Without a
 * destination such a batch's records are skipped with no trace of which range to replay.
 */
class ArchetypeGivenUpBatchesTest {
  private static final Path TEMPLATE =
      Path.of(
          "..", "archetype", "src", "main", "resources", "archetype-resources", "template.yaml");

  @Test
  void aStreamMappingThatGivesUpRecordsWhatItGaveUpOn() throws Exception {
    Template template = Template.load(TEMPLATE);
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (FunctionDef function : template.functions()) {
      for (EventSource event : function.events()) {
        if (!event.type().equals("Kinesis") && !event.type().equals("DynamoDB")) {
          continue;
        }
        checked++;
        JsonNode properties = event.properties();
        // -1 (the default) retries until the records expire; anything else gives batches up.
        if (properties.path("MaximumRetryAttempts").asInt(-1) < 0) {
          continue;
        }
        JsonNode destination = properties.at("/DestinationConfig/OnFailure/Destination");
        String named = Intrinsics.referencedLogicalId(destination);
        if (named == null || template.resource(named).isEmpty()) {
          problems.add(
              function.logicalId()
                  + " "
                  + event.name()
                  + " gives batches up after "
                  + properties.path("MaximumRetryAttempts").asInt()
                  + " retries but records them nowhere (no DestinationConfig.OnFailure)");
        }
      }
    }
    assertFalse(checked == 0, "the archetype's stream mappings were read");
    assertEquals(List.of(), problems);
  }
}
