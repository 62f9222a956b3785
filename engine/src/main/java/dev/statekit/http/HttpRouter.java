package dev.statekit.http;

import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.protocol.MalformedRequestException;
import dev.statekit.protocol.RequestReplyHandler;
import dev.statekit.types.TypeName;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The HTTP rules of a StateFun remote function endpoint, apart from any server: the JDK server
 * ({@link FunctionHttpServer}) and the Lambda Function URL handler both answer through it.
 *
 * <ul>
 *   <li>only POST (else 405 with {@code Allow: POST});
 *   <li>a {@code Content-Type}, when present, must be {@code application/octet-stream} (else 415);
 *   <li>an empty body is a 400, one over the size limit a 413;
 *   <li>{@code /{namespace}/{type}} of a registered function accepts only requests for that type
 *       (else 400); every other path is a catch-all that serves any registered function;
 *   <li>a malformed request or state of the wrong type is a 400, an unknown function type a 404, a
 *       failing function a 500; error bodies are one line of text that says what was wrong with the
 *       request, never what failed inside (a 500 names the failing address and an error id, the log
 *       has the cause under the same id);
 *   <li>a successful answer is a 200 with {@code Content-Type: application/octet-stream}.
 * </ul>
 */
public final class HttpRouter {
  private static final dev.statekit.telemetry.Log LOG =
      dev.statekit.telemetry.Log.of(HttpRouter.class);

  private final RequestReplyHandler handler;
  private final long maxRequestBytes;
  private final Map<String, TypeName> functionPaths = new HashMap<>();
  private final CallRequests calls;

  /**
   * Routes to {@code handler}.
   *
   * @param maxRequestBytes the largest body accepted
   */
  public HttpRouter(RequestReplyHandler handler, long maxRequestBytes) {
    this(Objects.requireNonNull(handler, "handler"), maxRequestBytes, null);
  }

  /**
   * Routes StateFun requests to {@code handler} (if not {@code null}) and request-reply calls,
   * {@code POST /call/<namespace>/<type>/<id>} with a JSON body, to {@code calls} (if not {@code
   * null}; a function runtime's {@code envelopeConsumer()}).
   */
  public HttpRouter(
      RequestReplyHandler handler,
      long maxRequestBytes,
      dev.statekit.event.EnvelopeConsumer calls) {
    if (handler == null && calls == null) {
      throw new IllegalArgumentException("An HTTP router needs StateFun functions, calls or both");
    }
    this.handler = handler;
    this.calls = calls == null ? null : new CallRequests(calls);
    if (maxRequestBytes < 1) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be at least 1, got " + maxRequestBytes);
    }
    this.maxRequestBytes = maxRequestBytes;
    if (handler != null) {
      for (TypeName type : handler.functions().types()) {
        functionPaths.put("/" + type.namespace() + "/" + type.name(), type);
      }
    }
  }

  /** The largest request body accepted. */
  public long maxRequestBytes() {
    return maxRequestBytes;
  }

  /**
   * Checks what can be checked before the body is read: method, content type, declared length.
   *
   * @param declaredLength the {@code Content-Length}, or -1 if unknown
   * @return the refusal, or {@code null} to go on and read the body
   */
  public HttpAnswer precheck(String method, String contentType, long declaredLength) {
    return precheck(method, null, contentType, declaredLength);
  }

  /** {@link #precheck(String, String, long)} for a request to {@code path}. */
  public HttpAnswer precheck(String method, String path, String contentType, long declaredLength) {
    if (isCallPath(path)) {
      HttpAnswer refused = CallRequests.precheck(method, contentType);
      return refused != null ? refused : declaredLength > maxRequestBytes ? tooLarge() : null;
    }
    if (!"POST".equals(method)) {
      return HttpAnswer.methodNotAllowed(method);
    }
    if (contentType != null && !isOctetStream(contentType)) {
      return HttpAnswer.error(
          415,
          "Content-Type '"
              + contentType
              + "' is not supported: send the ToFunction bytes as "
              + HttpAnswer.OCTET_STREAM);
    }
    if (declaredLength > maxRequestBytes) {
      return tooLarge();
    }
    return null;
  }

  /**
   * True if {@code path} is a call's: under the call prefix, and not a served function's own path
   * ({@code /call/center} for a function of namespace {@code call}, which Flink posts to).
   */
  private boolean isCallPath(String path) {
    return calls != null && CallRequests.isCall(path) && functionOf(path) == null;
  }

  /** The answer for a body past the limit. */
  public HttpAnswer tooLarge() {
    return HttpAnswer.error(
        413,
        "The request body is larger than the endpoint's limit of "
            + maxRequestBytes
            + " bytes; raise the limit if such batches are expected");
  }

  /**
   * Answers one request. Never throws: every failure becomes an error answer.
   *
   * @param contentType the {@code Content-Type} header, or {@code null} if absent
   */
  public HttpAnswer handle(String method, String path, String contentType, byte[] body) {
    return handle(method, path, contentType, body, name -> null);
  }

  /**
   * Answers one request, {@code headers} giving a header's value by name (case-insensitive) or
   * {@code null}; never throws.
   */
  public HttpAnswer handle(
      String method,
      String path,
      String contentType,
      byte[] body,
      java.util.function.Function<String, String> headers) {
    HttpAnswer refused = precheck(method, path, contentType, body == null ? 0 : body.length);
    if (refused != null) {
      return refused;
    }
    if (isCallPath(path)) {
      if (body == null || body.length == 0) {
        return HttpAnswer.error(
            400, "The call's body is empty; send {\"typename\": \"...\", \"value\": ...}");
      }
      return calls.handle(path, body, headers);
    }
    if (handler == null) {
      return HttpAnswer.error(
          404,
          "This endpoint answers calls only: POST "
              + CallRequests.PREFIX
              + "<namespace>/<type>/<id>");
    }
    if (body == null || body.length == 0) {
      return HttpAnswer.error(
          400, "The request body is empty; send the bytes of a StateFun ToFunction message");
    }
    try {
      return HttpAnswer.ok(handler.invoke(body, functionOf(path)));
    } catch (MalformedRequestException | IncompatibleStateException e) {
      return HttpAnswer.error(400, e.getMessage());
    } catch (UnknownFunctionException e) {
      return HttpAnswer.error(404, e.getMessage());
    } catch (FunctionInvocationException e) {
      // The cause is the function's own: its text may hold anything the code knew. The caller
      // learns which message failed; the log, which carries the same id, learns why.
      String id = dev.statekit.telemetry.ErrorIds.next();
      LOG.warn("[error " + id + "] " + e.getMessage(), e.getCause());
      return HttpAnswer.error(
          500,
          "The function "
              + e.address()
              + " failed on message "
              + (e.invocationIndex() + 1)
              + " of the batch; the endpoint's log has the cause (error "
              + id
              + ")");
    } catch (RuntimeException | Error e) {
      return unexpected("The invocation", e);
    }
  }

  /**
   * The 500 for {@code failure}, logged under an error id the answer names (never the cause
   * itself): what {@code what} threw that nothing else answered.
   */
  static HttpAnswer unexpected(String what, Throwable failure) {
    String id = dev.statekit.telemetry.ErrorIds.next();
    LOG.error("[error " + id + "] " + what + " failed unexpectedly", failure);
    return HttpAnswer.error(
        500, "The endpoint failed to answer; its log has the cause (error " + id + ")");
  }

  /**
   * The registered function whose own path {@code path} is, or {@code null} for the catch-all. The
   * path as sent is looked up, then percent-decoded: a client's URL library encodes what a URL
   * can't hold (a space in a type name), and any client may encode any character, and the path so
   * written is still the function's (else a request for another type, sent there, would be served).
   */
  private TypeName functionOf(String path) {
    String normalized = normalize(path);
    TypeName type = functionPaths.get(normalized);
    if (type == null) {
      String decoded = PercentDecoding.decode(normalized);
      type = decoded == null ? null : functionPaths.get(normalize(decoded));
    }
    return type;
  }

  private static String normalize(String path) {
    if (path == null) {
      return "/";
    }
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static boolean isOctetStream(String contentType) {
    int semicolon = contentType.indexOf(';');
    String mediaType = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return mediaType.trim().toLowerCase(Locale.ROOT).equals(HttpAnswer.OCTET_STREAM);
  }
}
