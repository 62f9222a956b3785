package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The serve's port has no authentication and listens on 127.0.0.1, but any web page the developer
 * has open can make the browser send a "simple" request (POST, Content-Type text/plain, no
 * preflight) to 127.0.0.1, and a page on a DNS-rebound name can even read the answers. Such
 * requests are refused (403). Before, nothing looked at Origin, Sec-Fetch-Site or Host, so a page
 * of another site invoked the functions (applied messages to state; on {@code serve --aws} to the
 * real table) and resent dead letters as it liked.
 */
class LocalServerCrossSiteTest {
  private CountingServe serve;
  private AtomicInteger invoked;
  private LocalLambdaServer server;

  @BeforeEach
  void start() throws IOException {
    serve = new CountingServe();
    invoked = serve.invoked;
    server = serve.server;
  }

  @AfterEach
  void stop() {
    serve.close();
  }

  @Test
  void aCrossSiteBrowserPostDoesNotInvokeTheFunction() throws Exception {
    String body = "{\"target\":\"example/greeter/mallory\",\"typename\":\"x/y\",\"value\":\"hi\"}";
    // What fetch(url, {method: 'POST', mode: 'no-cors', body}) from https://evil.example sends.
    String answer =
        exchange(
            "POST /2015-03-31/functions/AppFunction/invocations HTTP/1.1\r\n"
                + "Host: 127.0.0.1:"
                + server.url().getPort()
                + "\r\nOrigin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n"
                + "Sec-Fetch-Mode: no-cors\r\nContent-Type: text/plain;charset=UTF-8\r\n"
                + "Content-Length: "
                + body.length()
                + "\r\nConnection: close\r\n\r\n"
                + body);
    assertEquals(0, invoked.get(), "a page of another site invoked the function: " + answer);
    assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
  }

  @Test
  void aRequestForAnotherHostNameIsRefused() throws Exception {
    // A DNS-rebinding page (evil.example resolving to 127.0.0.1) is same-origin with itself: it
    // reads every answer. Only the Host header tells it from the developer's own tools.
    String answer =
        exchange(
            "POST /2015-03-31/functions/AppFunction/invocations HTTP/1.1\r\n"
                + "Host: evil.example:"
                + server.url().getPort()
                + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    assertEquals(0, invoked.get(), "a request to another host name invoked: " + answer);
  }

  private String exchange(String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.url().getPort())) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      in.transferTo(got);
      return got.toString(StandardCharsets.UTF_8);
    }
  }
}
