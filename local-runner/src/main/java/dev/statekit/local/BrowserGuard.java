package dev.statekit.local;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Keeps web pages from the serve's port. It has no authentication and listens on 127.0.0.1, yet any
 * page the developer has open can make the browser post to 127.0.0.1 (a "simple" request needs no
 * preflight), and a page on a name rebound to 127.0.0.1 reads every answer. So a request a browser
 * marks as from another site ({@code Sec-Fetch-Site: cross-site}, or an {@code Origin} neither on
 * this machine nor the host asked for) is refused, and on a loopback interface so is one for a host
 * name other than the machine's own. Tools (curl, the AWS CLI, a Flink cluster) send neither.
 */
final class BrowserGuard extends Filter {
  private final String boundHost;
  private final boolean loopbackOnly;

  /** A guard for a server listening on {@code boundHost}. */
  BrowserGuard(String boundHost) {
    this.boundHost = boundHost.toLowerCase(Locale.ROOT);
    this.loopbackOnly = isLoopback(this.boundHost);
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    String why = refusal(exchange);
    if (why == null) {
      chain.doFilter(exchange);
      return;
    }
    byte[] body = ("{\"error\":\"" + why + "\"}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(403, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  @Override
  public String description() {
    return "refuses requests of web pages from other sites";
  }

  /** Why the request is refused, or null. */
  private String refusal(HttpExchange exchange) {
    String host = hostName(exchange.getRequestHeaders().getFirst("Host"));
    if (loopbackOnly && host != null && !isLoopback(host) && !host.equals(boundHost)) {
      return "This local server answers requests for this machine only, not for host '"
          + host
          + "': call it as 127.0.0.1 or localhost";
    }
    if ("cross-site".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Sec-Fetch-Site"))) {
      return "A web page of another site may not call this local server";
    }
    String origin = exchange.getRequestHeaders().getFirst("Origin");
    if (origin != null && !origin.equals("null")) {
      String from = originHost(origin);
      if (from == null || !(isLoopback(from) || from.equals(host))) {
        return "A web page of another origin may not call this local server";
      }
    }
    return null;
  }

  /** The name in a {@code Host} header, without its port; null if there is none. */
  private static String hostName(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String h = header.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? h : h.substring(0, end + 1);
    }
    int colon = h.lastIndexOf(':');
    return colon < 0 ? h : h.substring(0, colon);
  }

  private static String originHost(String origin) {
    try {
      String host = URI.create(origin.trim()).getHost();
      return host == null ? null : host.toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean isLoopback(String host) {
    return host.equals("localhost")
        || host.endsWith(".localhost")
        || host.startsWith("127.")
        || host.equals("[::1]")
        || host.equals("::1");
  }
}
