package dev.statekit.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundedJson#read} and {@link BoundedJson#write} build and write the trees a bounded {@code
 * ObjectMapper} would, without one: the same nodes (node classes included), the same bytes, the
 * same failures, on the repository's event fixtures, edge cases and random documents.
 */
class JsonTreesTest {
  private static final ObjectMapper REFERENCE =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(BoundedJson.MAX_DEPTH)
                          .maxStringLength(BoundedJson.MAX_STRING_LENGTH)
                          .maxNumberLength(BoundedJson.MAX_NUMBER_LENGTH)
                          .maxNameLength(BoundedJson.MAX_NAME_LENGTH)
                          .build())
                  .build())
          .build();

  @Test
  void theEventFixturesReadAndWriteAsTheMapperDoes() throws IOException {
    List<Path> fixtures;
    try (Stream<Path> files = Files.list(Path.of("..", "events"))) {
      fixtures = files.filter(p -> p.toString().endsWith(".json")).toList();
    }
    assertTrue(fixtures.size() >= 5, "the fixtures are found: " + fixtures);
    for (Path fixture : fixtures) {
      same(Files.readAllBytes(fixture));
    }
  }

  @Test
  void edgeCasesReadAsTheMapperReadsThem() throws IOException {
    String[] cases = {
      "",
      "   ",
      "null",
      "true",
      "false",
      "0",
      "-0",
      "2147483647",
      "2147483648",
      "-2147483649",
      "9223372036854775807",
      "9223372036854775808",
      "123456789012345678901234567890",
      "1.0",
      "-0.0",
      "1e3",
      "1E-7",
      "1e400",
      "3.141592653589793238462643383279",
      "\"\"",
      "\"caf\\u00e9 \\ud83d\\ude00 \\n\\t\\\"\"",
      "{}",
      "[]",
      "{\"a\":1,\"a\":2}",
      "{\"a\":{\"b\":[1,[2,[3,{}]],null]}}",
      "{} trailing",
      "[1] [2]",
      "{\"k\":\"v\"}garbage",
      "[1,2,3,\"x\",{\"y\":false}]",
      "{\"big\":1e308,\"tiny\":4.9e-324,\"neg\":-1.5}",
    };
    for (String text : cases) {
      same(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void malformedAndOversizedDocumentsFailAsTheMapperFails() {
    List<String> cases = new ArrayList<>();
    cases.add("{");
    cases.add("[1,");
    cases.add("{\"a\":}");
    cases.add("{\"a\" 1}");
    cases.add("[1 2]");
    cases.add("nul");
    cases.add("{'a':1}");
    cases.add("\"unterminated");
    cases.add("[".repeat(BoundedJson.MAX_DEPTH + 1) + "]".repeat(BoundedJson.MAX_DEPTH + 1));
    cases.add("1" + "0".repeat(BoundedJson.MAX_NUMBER_LENGTH + 1));
    cases.add("{\"" + "n".repeat(BoundedJson.MAX_NAME_LENGTH + 1) + "\":1}");
    for (String text : cases) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      String theirs = failure(() -> REFERENCE.readTree(bytes));
      String ours = failure(() -> BoundedJson.read(bytes));
      assertEquals(theirs, ours, "the failure on " + abbreviated(text));
    }
    byte[] notUtf8 = {'"', (byte) 0xC3, (byte) 0x28, '"'};
    assertEquals(
        failure(() -> REFERENCE.readTree(notUtf8)), failure(() -> BoundedJson.read(notUtf8)));
  }

  /** What envelopes were read with: a default mapper refusing anything after the value. */
  private static final com.fasterxml.jackson.databind.ObjectReader ONE_DOCUMENT =
      new ObjectMapper()
          .reader()
          .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @Test
  void plainJsonReadsOneDocumentAndWritesAsTheDefaultMapperDoes() throws IOException {
    List<String> cases = new ArrayList<>(List.of("", "{}", "{\"a\":1,\"a\":[true,null,1.5]}"));
    cases.add("{} trailing");
    cases.add("[1] [2]");
    cases.add("{\"k\":\"v\"}garbage");
    cases.add("{\"k\":\"v\"} {\"k\":\"w\"}");
    cases.add("1 2");
    cases.add("{\"k\":\"v\"}   ");
    cases.add("{");
    cases.add("{'a':1}");
    // Past BoundedJson's depth and within the default one: envelopes keep the default bounds.
    cases.add("[".repeat(BoundedJson.MAX_DEPTH + 1) + "]".repeat(BoundedJson.MAX_DEPTH + 1));
    Random random = new Random(161);
    for (int i = 0; i < 1_000; i++) {
      StringBuilder json = new StringBuilder();
      document(random, json, 0);
      cases.add(json.toString());
    }
    ObjectMapper mapper = new ObjectMapper();
    for (String text : cases) {
      String theirs = failure(() -> ONE_DOCUMENT.readTree(text));
      String ours = failure(() -> PlainJson.readOne(text));
      if (theirs.startsWith("no failure")) {
        JsonNode tree = PlainJson.readOne(text);
        sameButExactBeyondDouble(ONE_DOCUMENT.readTree(text), tree, abbreviated(text));
        if (!tree.isMissingNode()) {
          assertArrayEquals(mapper.writeValueAsBytes(tree), PlainJson.write(tree), text);
          assertEquals(tree.toString(), PlainJson.text(tree), abbreviated(text));
        }
      } else {
        assertTrue(
            !ours.startsWith("no failure"),
            "the mapper refuses " + abbreviated(text) + " (" + theirs + "), PlainJson took it");
      }
    }
  }

  /**
   * The mapper's tree, node class for node class, but for a number beyond a double: the mapper's
   * Infinity (written back as the string "Infinity"), PlainJson's the exact decimal; and a double
   * that also keeps its text for the float it names.
   */
  private static void sameButExactBeyondDouble(JsonNode theirs, JsonNode ours, String text) {
    if (theirs.isDouble() && Double.isInfinite(theirs.doubleValue())) {
      assertTrue(ours.isBigDecimal(), "a number beyond a double stays exact in " + text);
      assertEquals(theirs.doubleValue(), ours.doubleValue(), text);
      return;
    }
    if (theirs.isDouble()) {
      // PlainJson's double keeps its text, for the float it names.
      assertTrue(ours instanceof DoubleNode, () -> "a double in " + text);
      assertEquals(Float.parseFloat(theirs.asText()), ours.floatValue(), text);
    } else {
      assertEquals(theirs.getClass(), ours.getClass(), text);
    }
    if (theirs.isObject()) {
      assertEquals(List.copyOf(theirs.properties()).size(), ours.size(), text);
      var mine = ours.fieldNames();
      for (var field : theirs.properties()) {
        assertEquals(field.getKey(), mine.next(), "the field order of " + text);
        sameButExactBeyondDouble(field.getValue(), ours.get(field.getKey()), text);
      }
    } else if (theirs.isArray()) {
      assertEquals(theirs.size(), ours.size(), text);
      for (int i = 0; i < theirs.size(); i++) {
        sameButExactBeyondDouble(theirs.get(i), ours.get(i), text);
      }
    } else {
      assertEquals(theirs, ours, text);
    }
  }

  @Test
  void plainJsonKeepsANumberBeyondADoubleExact() throws IOException {
    // The mapper reads 1e400 as Infinity and writes it back as the string "Infinity".
    assertEquals("\"Infinity\"", ONE_DOCUMENT.readTree("1e400").toString());
    assertEquals(
        "{\"a\":[1E+400,-1.0E+400]}",
        PlainJson.text(PlainJson.readOne("{\"a\":[1e400,-1.0e400]}")));
    assertEquals("1.5", PlainJson.text(PlainJson.readOne("1.5")), "a double as before");
    assertEquals("0.0", PlainJson.text(PlainJson.readOne("1e-400")), "underflow as the mapper");
    // An exponent past what a decimal holds is refused as the parser refuses it, not as a crash.
    String huge = failure(() -> PlainJson.readOne("[1e99999999999]"));
    assertTrue(huge.startsWith("com.fasterxml.jackson"), huge);
  }

  @Test
  void randomDocumentsReadAndWriteAsTheMapperDoes() throws IOException {
    Random random = new Random(16);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder json = new StringBuilder();
      document(random, json, 0);
      same(json.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void same(byte[] bytes) throws IOException {
    String text = abbreviated(new String(bytes, StandardCharsets.UTF_8));
    JsonNode theirs = REFERENCE.readTree(bytes);
    JsonNode ours = BoundedJson.read(bytes);
    assertEquals(theirs, ours, "the tree of " + text);
    assertEquals(describe(theirs), describe(ours), "the node classes of " + text);
    if (!theirs.isMissingNode()) {
      assertArrayEquals(REFERENCE.writeValueAsBytes(theirs), BoundedJson.write(ours), text);
    }
  }

  /** Every node's class, in document order: equal trees may differ in number node classes. */
  private static String describe(JsonNode node) {
    StringBuilder out = new StringBuilder(node.getClass().getSimpleName());
    node.fields().forEachRemaining(f -> out.append(' ').append(describe(f.getValue())));
    if (node.isArray()) {
      node.forEach(e -> out.append(' ').append(describe(e)));
    }
    return out.toString();
  }

  private interface Read {
    JsonNode run() throws IOException;
  }

  private static String failure(Read read) {
    try {
      return "no failure: " + read.run();
    } catch (IOException | RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      // Where the reader stood is reported with the source's description; the rest must agree.
      int at = message.indexOf("\n at [");
      return e.getClass().getName() + ": " + (at < 0 ? message : message.substring(0, at));
    }
  }

  private static void document(Random random, StringBuilder out, int depth) {
    int kind = random.nextInt(depth > 4 ? 6 : 8);
    switch (kind) {
      case 0 -> out.append(random.nextBoolean() ? "true" : random.nextBoolean() ? "false" : "null");
      case 1 -> out.append(random.nextInt());
      case 2 -> out.append(random.nextLong() * (random.nextBoolean() ? 1 : 1000));
      case 3 -> out.append(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 4 -> out.append(random.nextBoolean() ? "1e" + random.nextInt(400) : "-0.5E-3");
      case 5 -> {
        out.append('"');
        int n = random.nextInt(12);
        for (int c = 0; c < n; c++) {
          int pick = random.nextInt(6);
          out.append(
              switch (pick) {
                case 0 -> "\\u00e9";
                case 1 -> "\\n";
                case 2 -> "é€😀";
                case 3 -> "\\\"";
                default -> String.valueOf((char) ('a' + random.nextInt(26)));
              });
        }
        out.append('"');
      }
      case 6 -> {
        out.append('[');
        int n = random.nextInt(5);
        for (int e = 0; e < n; e++) {
          if (e > 0) {
            out.append(',');
          }
          document(random, out, depth + 1);
        }
        out.append(']');
      }
      default -> {
        out.append('{');
        int n = random.nextInt(5);
        for (int e = 0; e < n; e++) {
          if (e > 0) {
            out.append(',');
          }
          out.append("\"k").append(random.nextInt(4)).append("\":");
          document(random, out, depth + 1);
        }
        out.append('}');
      }
    }
  }

  private static String abbreviated(String text) {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
