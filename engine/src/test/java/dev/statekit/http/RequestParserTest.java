package dev.statekit.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The request parser's framing rules and bounds, with the status each refusal answers. */
class RequestParserTest {
  private static final HttpLimits LIMITS = HttpLimits.parsing(100);

  @Test
  void aLengthFramedRequestAndTheBytesAfterIt() {
    RequestParser parser = new RequestParser(LIMITS);
    byte[] bytes = ascii("POST /a/b?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcNEXT");

    int used = parser.feed(bytes, 0, bytes.length);

    assertEquals(RequestParser.State.DONE, parser.state());
    assertEquals(bytes.length - 4, used, "the next request's bytes are left");
    assertEquals("/a/b", parser.path());
    assertArrayEquals(ascii("abc"), parser.body());
    assertTrue(parser.keepAlive());
  }

  @Test
  void aChunkedBodyWithExtensionsAndTrailers() {
    RequestParser parser = new RequestParser(LIMITS);
    byte[] bytes =
        ascii(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
                + "3;a=b\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n");

    parser.feed(bytes, 0, bytes.length);

    assertEquals(RequestParser.State.DONE, parser.state());
    assertArrayEquals(ascii("abcde"), parser.body());
    assertEquals(-1, parser.declaredLength());
    assertTrue(parser.expectsContinue());
  }

  @Test
  void ambiguousFramingIsRefused() {
    assertRefused(
        400, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n");
    assertRefused(
        400,
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n");
    assertRefused(501, "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n");
    assertRefused(400, "POST / HTTP/1.1\nHost: h\r\n\r\n");
    assertRefused(400, "POST / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n");
    assertRefused(400, "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assertRefused(400, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n");
    assertRefused(400, "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    assertRefused(505, "POST / HTTP/2.0\r\nHost: h\r\n\r\n");
  }

  @Test
  void boundsAreHeldWithTheirStatus() {
    assertRefused(413, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 101\r\n\r\n");
    assertRefused(413, "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n");
    assertRefused(414, "POST /" + "a".repeat(20_000) + " HTTP/1.1\r\n");
    assertRefused(431, "POST / HTTP/1.1\r\nHost: h\r\nX: " + "a".repeat(20_000) + "\r\n");
    assertRefused(431, "POST / HTTP/1.1\r\nHost: h\r\n" + "X: y\r\n".repeat(101) + "\r\n");
  }

  @Test
  void nothingIsAllocatedFromADeclaredLength() {
    RequestParser parser = new RequestParser(HttpLimits.parsing(1 << 30));
    byte[] bytes = ascii("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000000\r\n\r\nx");

    parser.feed(bytes, 0, bytes.length);

    assertEquals(RequestParser.State.BODY, parser.state());
    assertTrue(parser.bufferedBodyBytes() <= 8192, "holds " + parser.bufferedBodyBytes());
    assertFalse(parser.expectsContinue());
  }

  private static void assertRefused(int status, String request) {
    RequestParser parser = new RequestParser(LIMITS);
    byte[] bytes = ascii(request);
    parser.feed(bytes, 0, bytes.length);
    assertEquals(RequestParser.State.FAILED, parser.state(), request);
    assertEquals(status, parser.problem().status(), parser.problem().message());
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }
}
