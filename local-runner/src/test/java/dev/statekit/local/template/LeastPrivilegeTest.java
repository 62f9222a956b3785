package dev.statekit.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, case 5: a role reaches only its own items of the shared table: every statement on the
 * table carries a {@code dynamodb:LeadingKeys} condition naming that function's key prefixes.
 */
class LeastPrivilegeTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyTableGrantIsScopedToItsOwnKeyPrefixes() throws Exception {
    Template template = Template.load(ROOT.resolve("template.yaml"));
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (FunctionDef function : template.functions()) {
      for (JsonNode policy : function.policies()) {
        for (JsonNode statement : policy.path("Statement")) {
          if (!statement.toString().contains("dynamodb:")) {
            continue;
          }
          checked++;
          JsonNode keys = statement.at("/Condition/ForAllValues:StringLike/dynamodb:LeadingKeys");
          if (!keys.isArray() || keys.isEmpty()) {
            problems.add(
                function.logicalId()
                    + " "
                    + statement.path("Sid").asText()
                    + " reaches every item of the table");
          }
        }
      }
    }
    assertTrue(checked >= 2, "statements checked: " + checked);
    assertEquals(List.of(), problems);
  }
}
