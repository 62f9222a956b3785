package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.util.Set;

/**
 * The HTTP endpoint's request parsing on mutated requests: the outcome does not depend on how the
 * bytes are cut into reads, the body never passes its limit, a complete request is always answered,
 * and with a status the endpoint documents.
 */
class RequestParserFuzzTest {
  private static final long LIMIT = 4096;
  private static final HttpLimits LIMITS = HttpLimits.parsing(LIMIT);
  private static final HttpRouter ROUTER =
      new HttpRouter(
          new RequestReplyHandler(
              StatefulFunctions.builder()
                  .withFunction(TypeName.of("test", "echo"), (context, message) -> {})
                  .build()),
          LIMIT);
  private static final Set<Integer> STATUSES =
      Set.of(200, 400, 404, 405, 408, 413, 414, 415, 431, 500, 501, 503, 505);

  @FuzzTest
  // libFuzzer reads a dictionary line by line: CR and LF are written as escapes.
  @DictionaryEntries({
    "POST / HTTP/1.1\\x0d\\x0a",
    "Host: x\\x0d\\x0a",
    "Content-Length: ",
    "Transfer-Encoding: chunked\\x0d\\x0a",
    "Content-Type: application/octet-stream\\x0d\\x0a",
    "Expect: 100-continue\\x0d\\x0a",
    "Connection: close\\x0d\\x0a",
    "\\x0d\\x0a",
    "0\\x0d\\x0a\\x0d\\x0a"
  })
  void parsesAnyRequest(byte[] bytes) {
    RequestParser whole = new RequestParser(LIMITS);
    int used = whole.feed(bytes, 0, bytes.length);
    assertTrue(used >= 0 && used <= bytes.length);

    RequestParser pieces = new RequestParser(LIMITS);
    int step = bytes.length == 0 ? 1 : 1 + (bytes[0] & 0x0F);
    int fed = 0;
    while (fed < bytes.length && !ended(pieces)) {
      fed += pieces.feed(bytes, fed, Math.min(step, bytes.length - fed));
    }
    assertEquals(whole.state(), pieces.state(), "the outcome depends on how the bytes arrive");
    assertEquals(used, fed, "the request ends at the same byte");
    if (whole.state() == RequestParser.State.FAILED) {
      assertEquals(whole.problem(), pieces.problem());
      assertTrue(STATUSES.contains(whole.problem().status()), whole.problem().toString());
      return;
    }
    if (whole.state() != RequestParser.State.DONE) {
      return;
    }
    assertArrayEquals(whole.body(), pieces.body());
    assertTrue(whole.body().length <= LIMIT);
    HttpAnswer answer =
        ROUTER.handle(whole.method(), whole.path(), whole.header("Content-Type"), whole.body());
    assertTrue(STATUSES.contains(answer.status()), answer.toString());
  }

  private static boolean ended(RequestParser parser) {
    return parser.state() == RequestParser.State.DONE
        || parser.state() == RequestParser.State.FAILED;
  }
}
