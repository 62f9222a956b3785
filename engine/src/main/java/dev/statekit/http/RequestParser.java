package dev.statekit.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 request from bytes as they arrive, in any pieces: the request line, the
 * headers, then a body framed by {@code Content-Length} or chunked. It holds at most the head's
 * bound and the body's bound in memory, never allocates from a declared length, and refuses
 * anything ambiguous about where the request ends (two lengths, a length and chunks, an unknown
 * coding) rather than guess: a guess is how one request hides inside another.
 */
final class RequestParser {
  /** Where the parser is. */
  enum State {
    HEAD,
    BODY,
    DONE,
    FAILED
  }

  private enum Chunk {
    SIZE,
    DATA,
    DATA_END,
    TRAILERS
  }

  private static final int MAX_LEADING_EMPTY_LINES = 8;
  private static final int MAX_CHUNK_LINE = 1024;

  /**
   * Fields that hold one value, which the endpoint reads and an intermediary may read too: given
   * twice, one side may take the first and the other the last (RFC 9112 3.2 for Host; the
   * Idempotency-Key is what a call's exactly-once rests on).
   */
  private static final List<String> SINGLE_VALUED =
      List.of("Host", "Content-Type", "Idempotency-Key");

  private final HttpLimits limits;

  private State state = State.HEAD;
  private HttpProblem problem;
  private int consumedTotal;

  // The head (or a chunk line, or a trailer line), one line at a time.
  private final byte[] line;
  private int lineLength;
  private boolean sawCr;
  private int headBytes;
  private int emptyLines;

  private String method;
  private String path;
  private boolean http10;
  private final List<String[]> headers = new ArrayList<>();

  private long contentLength = -1;
  private boolean chunked;
  private byte[] body = new byte[0];
  private int bodyLength;
  private long chunkLeft;
  private Chunk chunk = Chunk.SIZE;

  RequestParser(HttpLimits limits) {
    this.limits = limits;
    this.line = new byte[Math.max(limits.maxHeadBytes(), MAX_CHUNK_LINE)];
  }

  State state() {
    return state;
  }

  /** Whether any byte of this request arrived. */
  boolean started() {
    return consumedTotal > 0;
  }

  /** Whether the line and headers are read (the body may still be coming). */
  boolean headComplete() {
    return state == State.BODY || state == State.DONE;
  }

  HttpProblem problem() {
    return problem;
  }

  String method() {
    return method;
  }

  /** The path of the request target, without its query. */
  String path() {
    return path;
  }

  /** The first value of a header (names are case-insensitive), or {@code null}. */
  String header(String name) {
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        return header[1];
      }
    }
    return null;
  }

  /** The declared body length, or -1 for a chunked body. */
  long declaredLength() {
    return chunked ? -1 : Math.max(0, contentLength);
  }

  /** Whether the client waits for {@code 100 Continue} before it sends the body. */
  boolean expectsContinue() {
    String expect = header("Expect");
    return expect != null && expect.trim().equalsIgnoreCase("100-continue") && !http10;
  }

  /** Whether the connection stays open after the answer. */
  boolean keepAlive() {
    // Connection is a list, in any number of field lines (RFC 9110 5.3): "close" anywhere in it
    // closes (RFC 9112 9.6), on HTTP/1.0 too, whatever else is beside it.
    boolean close = false;
    boolean keepAlive = false;
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase("Connection")) {
        for (String option : header[1].split(",", -1)) {
          String token = option.strip().toLowerCase(Locale.ROOT);
          close |= token.equals("close");
          keepAlive |= token.equals("keep-alive");
        }
      }
    }
    return !close && (!http10 || keepAlive);
  }

  /** The body, once {@link State#DONE}. */
  byte[] body() {
    return bodyLength == body.length ? body : java.util.Arrays.copyOf(body, bodyLength);
  }

  /** Lets the body go: the request is answered, and only its answer is held until it is read. */
  void releaseBody() {
    body = new byte[0];
    bodyLength = 0;
  }

  /** How many body bytes are held. */
  int bufferedBodyBytes() {
    return body.length;
  }

  /**
   * Reads bytes of this request; stops at its end (the rest belong to the next request).
   *
   * @return how many of the {@code length} bytes were used
   */
  int feed(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end && (state == State.HEAD || state == State.BODY)) {
      if (state == State.HEAD) {
        i = head(bytes, i, end);
      } else if (chunked) {
        i = chunked(bytes, i, end);
      } else {
        int take = (int) Math.min(end - i, contentLength - bodyLength);
        append(bytes, i, take);
        i += take;
        if (bodyLength == contentLength) {
          state = State.DONE;
        }
      }
    }
    consumedTotal += i - offset;
    return i - offset;
  }

  // ---- the head ----

  private int head(byte[] bytes, int i, int end) {
    while (i < end && state == State.HEAD) {
      byte b = bytes[i++];
      if (++headBytes > limits.maxHeadBytes()) {
        fail(
            method == null ? 414 : 431,
            method == null
                ? "The request line is longer than " + limits.maxHeadBytes() + " bytes"
                : "The request's headers are larger than " + limits.maxHeadBytes() + " bytes");
        return i;
      }
      if (!lineByte(b, limits.maxHeadBytes())) {
        continue;
      }
      if (method == null) {
        requestLine();
      } else if (lineLength == 0) {
        endOfHeaders();
      } else {
        headerLine();
      }
      lineLength = 0;
    }
    return i;
  }

  /** Adds a byte to the current line; true when the line ended (CRLF, not kept). */
  private boolean lineByte(byte b, int max) {
    if (sawCr) {
      sawCr = false;
      if (b == '\n') {
        return true;
      }
      fail(400, "A line of the request ends in a bare CR; lines end in CRLF");
      return false;
    }
    if (b == '\r') {
      sawCr = true;
      return false;
    }
    if (b == '\n') {
      fail(400, "A line of the request ends in a bare LF; lines end in CRLF");
      return false;
    }
    if (lineLength >= max) {
      fail(431, "A line of the request is longer than " + max + " bytes");
      return false;
    }
    line[lineLength++] = b;
    return false;
  }

  private void requestLine() {
    if (lineLength == 0) {
      // Some clients send an empty line after a body: tolerated before a request, a few times.
      if (++emptyLines > MAX_LEADING_EMPTY_LINES) {
        fail(400, "The request starts with empty lines instead of a request line");
      }
      return;
    }
    String text = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1);
    String[] parts = text.split(" ", -1);
    if (parts.length != 3 || !isToken(parts[0]) || parts[1].isEmpty()) {
      fail(400, "The request line is not METHOD /path HTTP/1.1");
      return;
    }
    if (parts[2].equals("HTTP/1.0")) {
      http10 = true;
    } else if (!parts[2].equals("HTTP/1.1")) {
      fail(505, "Only HTTP/1.1 (and 1.0) are spoken here, not '" + shorten(parts[2]) + "'");
      return;
    }
    String target = parts[1];
    if (target.startsWith("http://") || target.startsWith("https://")) {
      int slash = target.indexOf('/', target.indexOf("//") + 2);
      target = slash < 0 ? "/" : target.substring(slash);
    }
    if (!target.startsWith("/") && !target.equals("*")) {
      fail(400, "The request target '" + shorten(target) + "' is not a path");
      return;
    }
    for (int k = 0; k < target.length(); k++) {
      char c = target.charAt(k);
      if (c <= ' ' || c >= 0x7F) {
        fail(400, "The request target has a control, space or non-ASCII character");
        return;
      }
    }
    int query = target.indexOf('?');
    method = parts[0];
    path = query < 0 ? target : target.substring(0, query);
  }

  private void headerLine() {
    if (line[0] == ' ' || line[0] == '\t') {
      fail(400, "A header is folded over lines; send each header on one line");
      return;
    }
    int colon = -1;
    for (int k = 0; k < lineLength; k++) {
      if (line[k] == ':') {
        colon = k;
        break;
      }
    }
    String name = colon <= 0 ? "" : new String(line, 0, colon, StandardCharsets.ISO_8859_1);
    if (!isToken(name)) {
      fail(400, "A header line is not 'Name: value'");
      return;
    }
    if (headers.size() >= limits.maxHeaders()) {
      fail(431, "The request has more than " + limits.maxHeaders() + " headers");
      return;
    }
    // Only SP and HTAB surround a value (RFC 9110 5.5): String.strip would also take away control
    // characters such as a vertical tab, and "\u000bchunked" would pass for "chunked", which a
    // proxy in front reads as an unknown coding.
    int from = colon + 1;
    int to = lineLength;
    while (from < to && (line[from] == ' ' || line[from] == '\t')) {
      from++;
    }
    while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t')) {
      to--;
    }
    String value = new String(line, from, to - from, StandardCharsets.ISO_8859_1);
    for (int k = 0; k < value.length(); k++) {
      char c = value.charAt(k);
      if ((c < ' ' && c != '\t') || c == 0x7F) {
        fail(400, "The header " + name + " has a control character in its value");
        return;
      }
    }
    headers.add(new String[] {name, value});
  }

  private void endOfHeaders() {
    if (!http10 && header("Host") == null) {
      fail(400, "An HTTP/1.1 request needs a Host header");
      return;
    }
    for (String single : SINGLE_VALUED) {
      if (headers.stream().filter(header -> header[0].equalsIgnoreCase(single)).count() > 1) {
        fail(400, "The request has more than one " + single + " header; send one");
        return;
      }
    }
    String coding = null;
    long length = -1;
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase("Transfer-Encoding")) {
        if (coding != null) {
          fail(400, "Transfer-Encoding is given twice");
          return;
        }
        coding = header[1].toLowerCase(Locale.ROOT);
      } else if (header[0].equalsIgnoreCase("Content-Length")) {
        long declared = contentLength(header[1]);
        if (declared < 0) {
          return;
        }
        if (length >= 0 && declared != length) {
          fail(400, "Content-Length gives two different lengths");
          return;
        }
        length = declared;
      }
    }
    if (coding != null && http10) {
      // HTTP/1.0 has no transfer codings (RFC 9112 6.1: its framing is faulty): a proxy in front
      // may have framed the same bytes by their Content-Length, or up to the connection's close.
      fail(400, "An HTTP/1.0 request can't have Transfer-Encoding; send Content-Length");
      return;
    }
    if (coding != null && length >= 0) {
      fail(400, "The request has both Content-Length and Transfer-Encoding; send one");
      return;
    }
    if (coding != null && !coding.equals("chunked")) {
      fail(501, "The transfer coding '" + shorten(coding) + "' is not supported; send chunked");
      return;
    }
    if (length > limits.maxRequestBytes()) {
      fail(413, tooLarge());
      return;
    }
    chunked = coding != null;
    contentLength = chunked ? -1 : Math.max(0, length);
    state = chunked || contentLength > 0 ? State.BODY : State.DONE;
  }

  /** A Content-Length value: digits, or the same digits repeated with commas; -1 after failing. */
  private long contentLength(String value) {
    long length = -1;
    for (String part : value.split(",", -1)) {
      String digits = part.strip();
      int zeros = 0;
      while (zeros < digits.length() - 1 && digits.charAt(zeros) == '0') {
        zeros++;
      }
      digits = digits.substring(zeros);
      if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
        fail(400, "Content-Length '" + shorten(value) + "' is not a number");
        return -1;
      }
      if (digits.length() > 18) {
        fail(413, tooLarge());
        return -1;
      }
      long parsed = Long.parseLong(digits);
      if (length >= 0 && parsed != length) {
        fail(400, "Content-Length gives two different lengths");
        return -1;
      }
      length = parsed;
    }
    return length;
  }

  // ---- a chunked body ----

  private int chunked(byte[] bytes, int i, int end) {
    while (i < end && state == State.BODY) {
      switch (chunk) {
        case SIZE, TRAILERS -> {
          byte b = bytes[i++];
          if (chunk == Chunk.TRAILERS && ++headBytes > limits.maxHeadBytes()) {
            fail(431, "The request's trailers are larger than " + limits.maxHeadBytes() + " bytes");
          } else if (lineByte(b, chunk == Chunk.SIZE ? MAX_CHUNK_LINE : limits.maxHeadBytes())) {
            if (chunk == Chunk.SIZE) {
              chunkSize();
            } else if (lineLength == 0) {
              state = State.DONE;
            }
            lineLength = 0;
          }
        }
        case DATA -> {
          int take = (int) Math.min(end - i, chunkLeft);
          append(bytes, i, take);
          i += take;
          chunkLeft -= take;
          if (chunkLeft == 0) {
            chunk = Chunk.DATA_END;
          }
        }
        case DATA_END -> {
          byte b = bytes[i++];
          if (!sawCr && b == '\r') {
            sawCr = true;
          } else if (sawCr && b == '\n') {
            sawCr = false;
            chunk = Chunk.SIZE;
            lineLength = 0;
          } else {
            fail(400, "A chunk's data is longer than its size says, or does not end in CRLF");
          }
        }
      }
    }
    return i;
  }

  private void chunkSize() {
    int k = 0;
    long size = 0;
    int significant = 0;
    while (k < lineLength && Character.digit(line[k], 16) >= 0) {
      // Leading zeros add nothing: only the digits after them can overflow.
      if ((size > 0 || line[k] != '0') && ++significant > 15) {
        fail(413, tooLarge());
        return;
      }
      size = size * 16 + Character.digit(line[k], 16);
      k++;
    }
    boolean extension = k < lineLength && (line[k] == ';' || line[k] == ' ' || line[k] == '\t');
    if (k == 0 || (k < lineLength && !extension)) {
      fail(400, "A chunk size is not a hexadecimal number");
      return;
    }
    if (size > limits.maxRequestBytes() - bodyLength) {
      fail(413, tooLarge());
      return;
    }
    chunkLeft = size;
    chunk = size == 0 ? Chunk.TRAILERS : Chunk.DATA;
    headBytes = 0;
  }

  // ---- helpers ----

  private void append(byte[] bytes, int offset, int length) {
    if (length == 0) {
      return;
    }
    if (bodyLength + length > body.length) {
      long wanted = Math.max((long) body.length * 2, Math.max(bodyLength + length, 8192L));
      long cap = chunked ? limits.maxRequestBytes() : contentLength;
      body =
          java.util.Arrays.copyOf(body, (int) Math.min(wanted, Math.max(cap, bodyLength + length)));
    }
    System.arraycopy(bytes, offset, body, bodyLength, length);
    bodyLength += length;
  }

  private String tooLarge() {
    return "The request body is larger than the endpoint's limit of "
        + limits.maxRequestBytes()
        + " bytes; raise the limit if such batches are expected";
  }

  private void fail(int status, String message) {
    if (state != State.FAILED) {
      state = State.FAILED;
      problem = new HttpProblem(status, message);
    }
  }

  private static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String shorten(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }
}
