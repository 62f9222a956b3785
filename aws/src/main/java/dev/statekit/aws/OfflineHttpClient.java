package dev.statekit.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An SDK HTTP client that never touches the network: every request is answered at once with 200 and
 * an empty JSON object, except that an SQS batch send reports each entry as sent (an empty answer
 * would read as "none sent" and be retried). Clients built on it run the SDK's whole request path
 * (marshalling, signing, interceptors, unmarshalling) without opening a connection: what priming
 * before a SnapStart snapshot needs, since a connection opened then would be dead after the
 * restore.
 */
final class OfflineHttpClient implements SdkHttpClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    byte[] body = request.contentStreamProvider().map(b -> read(b.newStream())).orElse(new byte[0]);
    String target = request.httpRequest().firstMatchingHeader("X-Amz-Target").orElse("");
    byte[] answer = target.equals("AmazonSQS.SendMessageBatch") ? allSent(body) : EMPTY_OBJECT;
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() {
        return HttpExecuteResponse.builder()
            .response(
                SdkHttpResponse.builder()
                    .statusCode(200)
                    .putHeader("Content-Type", "application/x-amz-json-1.0")
                    .putHeader("x-amzn-RequestId", "offline")
                    .build())
            .responseBody(AbortableInputStream.create(new ByteArrayInputStream(answer)))
            .build();
      }

      @Override
      public void abort() {}
    };
  }

  private static byte[] allSent(byte[] request) {
    try {
      ObjectNode answer = JSON.createObjectNode();
      ArrayNode sent = answer.putArray("Successful");
      for (JsonNode entry : JSON.readTree(request).path("Entries")) {
        sent.addObject().put("Id", entry.path("Id").asText()).put("MessageId", "priming");
      }
      answer.putArray("Failed");
      return JSON.writeValueAsBytes(answer);
    } catch (IOException e) {
      return EMPTY_OBJECT;
    }
  }

  private static byte[] read(InputStream body) {
    try (body) {
      return body.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  @Override
  public String clientName() {
    return "StateKitOffline";
  }

  @Override
  public void close() {}
}
