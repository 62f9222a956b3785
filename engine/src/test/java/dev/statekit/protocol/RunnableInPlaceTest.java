package dev.statekit.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The reader tells which invocation the handler will refuse from the request's bytes, before any
 * string is decoded ({@link RequestDecoding#isRunnable}): it must tell it as the handler's checks
 * on the decoded strings do, for names with slashes at either end, several slashes, and characters
 * of several bytes.
 */
class RunnableInPlaceTest {
  private static final String[] NAMES = {
    "",
    "/",
    "//",
    "a",
    "a/",
    "/a",
    "a/b",
    "a//b",
    "a/b/",
    "/a/b",
    "io.statefun.types/int",
    "é/é",
    "€/",
    "/€",
    "€/€/",
    "a/€",
    "€€",
    "ns/na/me"
  };

  @Test
  void anArgumentTypeIsTakenInPlaceAsItIsDecoded() {
    for (String type : NAMES) {
      byte[] bytes = withPrefix(type);
      assertEquals(
          RequestDecoding.isArgumentType(type),
          RequestDecoding.isRunnable(bytes, 3, bytes.length - 3, true, null),
          "argument type '" + type + "'");
      assertEquals(
          false,
          RequestDecoding.isRunnable(bytes, 3, bytes.length - 3, false, null),
          "'" + type + "' without has_value");
    }
  }

  @Test
  void aCallerIsTakenInPlaceAsItIsDecoded() {
    byte[] type = withPrefix("a/b");
    for (String namespace : NAMES) {
      for (String callerType : NAMES) {
        for (String id : new String[] {"", "x", "é/"}) {
          byte[] n = namespace.getBytes(StandardCharsets.UTF_8);
          byte[] t = callerType.getBytes(StandardCharsets.UTF_8);
          byte[] i = id.getBytes(StandardCharsets.UTF_8);
          byte[] request = new byte[type.length + n.length + t.length + i.length];
          System.arraycopy(type, 0, request, 0, type.length);
          System.arraycopy(n, 0, request, type.length, n.length);
          System.arraycopy(t, 0, request, type.length + n.length, t.length);
          System.arraycopy(i, 0, request, type.length + n.length + t.length, i.length);
          int[] parts = {
            type.length,
            n.length,
            type.length + n.length,
            t.length,
            type.length + n.length + t.length,
            i.length
          };
          assertEquals(
              RequestDecoding.isComplete(new String[] {namespace, callerType, id}),
              RequestDecoding.isRunnable(request, 3, type.length - 3, true, parts),
              "caller '" + namespace + "/" + callerType + "/" + id + "'");
        }
      }
    }
  }

  /** The name's bytes after three bytes of something else, so it does not start the array. */
  private static byte[] withPrefix(String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[utf8.length + 3];
    bytes[0] = '/';
    bytes[1] = 'x';
    bytes[2] = '/';
    System.arraycopy(utf8, 0, bytes, 3, utf8.length);
    return bytes;
  }
}
